import { describe, expect, it } from "vitest";
import { courtSeat, ufOfMunicipality } from "../../../../src/time/calendar/court-seat.js";

describe("courtSeat", () => {
  it("reads the branch and states of each kind of alias", () => {
    expect(courtSeat("TJSP")).toMatchObject({ court: "tjsp", branch: "state", uf: "sp" });
    expect(courtSeat("api_publica_tjdft")).toMatchObject({ branch: "state", uf: "df" });
    expect(courtSeat("tjmsp")).toMatchObject({ branch: "state-military", uf: "sp" });
    expect(courtSeat("tre-dft")).toMatchObject({ branch: "electoral", uf: "df" });
    expect(courtSeat("trt15")).toMatchObject({ branch: "labor", uf: "sp" });
    expect(courtSeat("stj")).toMatchObject({ branch: "superior", states: [], uf: null });
    expect(courtSeat("tjxx")).toMatchObject({ branch: null, uf: null });
  });

  it("takes a multi-state court's state from the seat, and does not guess without one", () => {
    // 1302603 Manaus (AM), 1400100 Boa Vista (RR): both TRT11 (Lei 8.430/1992 region).
    expect(courtSeat("trt11", 1302603)).toMatchObject({ uf: "am", municipality: 1302603 });
    expect(courtSeat("trt11", 1400100)).toMatchObject({ uf: "rr" });
    expect(courtSeat("trt11")).toMatchObject({ uf: null, municipality: null });
    expect(courtSeat("trf1", 0)).toMatchObject({ uf: null });
  });

  it("does not believe a seat outside the court's states", () => {
    // 3550308 São Paulo is no seat of the TJRJ; superior courts have no local holidays.
    expect(courtSeat("tjrj", 3550308)).toMatchObject({ uf: "rj", municipality: null });
    expect(courtSeat("stj", 5300108)).toMatchObject({ uf: null, municipality: null });
  });

  it("reads the state from an IBGE municipality code's first two digits", () => {
    expect(ufOfMunicipality(3550308)).toBe("sp");
    expect(ufOfMunicipality(5300108)).toBe("df");
    expect(ufOfMunicipality(9900000)).toBeNull();
    expect(ufOfMunicipality(35)).toBeNull();
  });
});
