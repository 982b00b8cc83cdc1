import type { Movement } from "../../src/datajud/instance-record.js";

/**
 * A normalized Movement with the fields a test does not care about filled in. Its raw date is the
 * wall clock it was given, as if DataJud had sent exactly that.
 */
export function testMovement(fields: Partial<Movement> & { id: string }): Movement {
  const dateTime = fields.dateTime ?? null;
  return {
    code: null,
    name: "",
    complements: [],
    courtUnit: null,
    hint: null,
    ...fields,
    dateTime,
    dateTimeRaw: fields.dateTimeRaw === undefined ? dateTime : fields.dateTimeRaw,
  };
}
