import { describe, expect, it } from "vitest";
import { z } from "zod";
import { loadCalendarTable } from "../../../../src/time/calendar/calendar-data.js";
import { parseCourtRules } from "../../../../src/time/calendar/court-rules.js";
import rulesJson from "../../../../src/time/calendar/court-rules.json" with { type: "json" };
import { parseMunicipalDays } from "../../../../src/time/calendar/municipal-days.js";
import municipalJson from "../../../../src/time/calendar/municipal-days.json" with { type: "json" };
import { parseNationalDays } from "../../../../src/time/calendar/national-days.js";
import nationalJson from "../../../../src/time/calendar/national-days.json" with { type: "json" };
import { parseStateDays } from "../../../../src/time/calendar/state-days.js";
import stateJson from "../../../../src/time/calendar/state-days.json" with { type: "json" };
import { parseUnionDays } from "../../../../src/time/calendar/union-days.js";
import unionJson from "../../../../src/time/calendar/union-days.json" with { type: "json" };

describe("the calendar's tables, loaded through one schema-checked loader", () => {
  it("names the file and the place in it of what is wrong", () => {
    expect(() =>
      loadCalendarTable("x.json", z.strictObject({ days: z.array(z.number()) }), { days: ["a"] }),
    ).toThrow("src/time/calendar/x.json is damaged at days.0:");
  });

  it("national-days.json: each holiday a date, a name and its law", () => {
    expect(parseNationalDays(nationalJson).fixed).toContainEqual(
      expect.objectContaining({
        month: 11,
        day: 20,
        source: "Lei 14.759/2023, art. 1º",
        since: 2024,
      }),
    );
    const damaged = structuredClone(nationalJson) as { fixed: Array<Record<string, unknown>> };
    delete damaged.fixed[1]?.source;
    expect(() => parseNationalDays(damaged)).toThrow(
      /national-days\.json is damaged at fixed\.1\.source/u,
    );
    expect(() => parseNationalDays({ ...nationalJson, fixed: [{ month: 13, day: 1 }] })).toThrow(
      /fixed\.0\.month/u,
    );
  });

  it("union-days.json: art. 62's days, a court's exceptions only among them", () => {
    const table = parseUnionDays(unionJson);
    expect(table.art62.days).toHaveLength(12);
    expect(table.notKept.trt13?.days).toEqual(["quarta-feira santa"]);
    expect(() =>
      parseUnionDays({ ...unionJson, notKept: { trt13: { days: ["quarta-feira"], why: "x" } } }),
    ).toThrow(/trt13 does not keep 'quarta-feira', no day of art\. 62/u);
    expect(() =>
      parseUnionDays({
        ...unionJson,
        collectiveHolidays: { stf: { ...unionJson.collectiveHolidays.stf, effect: "closed" } },
      }),
    ).toThrow(/union-days\.json is damaged at collectiveHolidays\.stf\.effect/u);
  });

  it("municipal-days.json: the 27 capitals once each, every day with its law", () => {
    const capitals = parseMunicipalDays(municipalJson);
    expect(capitals).toHaveLength(27);
    expect(capitals.find((capital) => capital.ibge === 4314902)?.days[0]).toEqual({
      fixed: "02-02",
      name: "Nossa Senhora dos Navegantes",
      source: "Lei municipal POA 4.453/1978",
      url: "https://ptdocz.com/doc/1902883/trt-da-4%C2%AA-regi%C3%A3o",
    });
    const [first] = municipalJson.capitals;
    expect(() => parseMunicipalDays({ ...municipalJson, capitals: [first, first] })).toThrow(
      /lists 3550308 twice/u,
    );
    expect(() =>
      parseMunicipalDays({
        ...municipalJson,
        capitals: [{ ...first, days: [{ fixed: "25/01", name: "x", source: "y", url: null }] }],
      }),
    ).toThrow(/municipal-days\.json is damaged at capitals\.0\.days\.0/u);
  });

  it("state-days.json: a verdict on date-holidays' rules for every state, each kept one with its law", () => {
    const table = parseStateDays(stateJson);
    expect(Object.keys(table.libraryRules)).toHaveLength(27);
    expect(table.libraryRules.sp["07-09"]).toMatchObject({
      keep: true,
      source: "Lei SP 9.497/1997, art. 1º",
    });
    const { sp: _sp, ...withoutSp } = stateJson.libraryRules;
    expect(() => parseStateDays({ ...stateJson, libraryRules: withoutSp })).toThrow(
      /state-days\.json is damaged at libraryRules\.sp/u,
    );
    expect(() =>
      parseStateDays({
        ...stateJson,
        libraryRules: {
          ...stateJson.libraryRules,
          rj: { "04-23": { keep: true, name: "Dia de São Jorge" } },
        },
      }),
    ).toThrow(/libraryRules\.rj\.04-23\.source/u);
  });

  it("court-rules.json: each court's standing rules and yearly acts, a dated day in its act's year", () => {
    const rules = parseCourtRules(rulesJson);
    expect(rules).toHaveLength(30);
    expect(rules.find((rule) => rule.courts.includes("tjsp"))).toMatchObject({
      years: [2026],
      annualCalendar: true,
      source: "Provimento CSM TJSP 2.813/2025, art. 1º",
    });
    const tjsp = rulesJson.rules.find((rule) => rule.courts.includes("tjsp"));
    expect(() =>
      parseCourtRules({
        ...rulesJson,
        rules: [{ ...tjsp, when: [{ date: "2025-12-08", name: "x" }] }],
      }),
    ).toThrow(/Provimento CSM TJSP 2\.813\/2025, art\. 1º dates 2025-12-08 outside its years/u);
    expect(() =>
      parseCourtRules({ ...rulesJson, rules: [{ ...tjsp, effect: "suspended" }] }),
    ).toThrow(/court-rules\.json is damaged at rules\.0\.effect/u);
  });
});
