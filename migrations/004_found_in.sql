-- The DataJud index (court alias) where a case was last found. A number keeps the court code it was
-- filed with, but a successor court can hold it (TRF6 took Minas Gerais over from TRF1 in 2022 and
-- keeps those cases' 4.01 numbers): later sweeps ask this index first. NULL: never found yet, or
-- found before this was recorded (the number's own court is asked first, as before).
ALTER TABLE cases ADD COLUMN found_in TEXT;
