import { z } from "zod";

/*
 * The one loader of the calendar's tables (src/time/calendar/*.json): each file says what it holds
 * (`about`) and each day or rule in it names its law or act and where it was read. A damaged file
 * stops the process at load, naming the file and the place in it.
 */

/** The law or act behind a day or rule, and where it was read (null: no link found). */
export const SourceFields = {
  source: z.string().min(1),
  url: z.string().url().nullable(),
};

export const Law = z.strictObject(SourceFields);
export type Law = z.infer<typeof Law>;

/** "MM-DD", a day of every year. */
export const MonthDay = z.string().regex(/^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/u, "MM-DD");

/** The table in `file` (a name under src/time/calendar/), checked against `schema`. */
export function loadCalendarTable<S extends z.ZodType>(
  file: string,
  schema: S,
  json: unknown,
): z.infer<S> {
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `src/time/calendar/${file} is damaged at ${issue?.path.join(".") || "?"}: ${issue?.message ?? "invalid"}`,
    );
  }
  return parsed.data;
}
