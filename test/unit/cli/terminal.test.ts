import { describe, expect, it } from "vitest";
import {
  fitLine,
  LiveLines,
  type OutputStream,
  terminalTraits,
} from "../../../src/cli/terminal.js";

function capture(traits: Partial<OutputStream> = {}): OutputStream & { text: () => string } {
  let text = "";
  return { ...traits, write: (chunk: string) => (text += chunk), text: () => text };
}

describe("terminalTraits: who reads stderr", () => {
  it("is a person on a terminal: human lines and colours", () => {
    expect(terminalTraits({ write: () => 0, isTTY: true }, { TERM: "xterm-256color" })).toEqual({
      interactive: true,
      colors: true,
    });
  });

  it("is a program on a pipe, a file or journald (no isTTY): JSON lines, no colours", () => {
    expect(terminalTraits({ write: () => 0 }, { TERM: "xterm" })).toEqual({
      interactive: false,
      colors: false,
    });
    expect(terminalTraits({ write: () => 0, isTTY: false }, {})).toEqual({
      interactive: false,
      colors: false,
    });
  });

  it("treats TERM=dumb as no terminal: it cannot move the cursor to redraw", () => {
    expect(terminalTraits({ write: () => 0, isTTY: true }, { TERM: "dumb" }).interactive).toBe(
      false,
    );
  });

  it("keeps human lines but drops colours under NO_COLOR (set and not empty)", () => {
    const tty = { write: () => 0, isTTY: true };

    expect(terminalTraits(tty, { NO_COLOR: "1" })).toEqual({ interactive: true, colors: false });
    expect(terminalTraits(tty, { NO_COLOR: "" })).toEqual({ interactive: true, colors: true });
  });
});

describe("LiveLines: lines redrawn in place with log lines above them", () => {
  it("draws, then erases exactly the lines it drew before drawing again", () => {
    const out = capture({ isTTY: true, columns: 80 });
    const live = new LiveLines(out);

    live.show(["a", "b"]);
    live.show(["c"]);

    expect(out.text()).toBe("a\nb\n\x1b[2A\r\x1b[Jc\n");
  });

  it("prints a log line above the live lines in one write, then draws them again", () => {
    const writes: string[] = [];
    const live = new LiveLines({ write: (chunk: string) => writes.push(chunk), columns: 80 });
    live.show(["progress"]);

    live.print("10:00:00 INFO: sweep finished\n");

    expect(writes).toEqual([
      "progress\n",
      "\x1b[1A\r\x1b[J10:00:00 INFO: sweep finished\nprogress\n",
    ]);
  });

  it("clears its lines once, and prints plainly when nothing is drawn", () => {
    const out = capture({ columns: 80 });
    const live = new LiveLines(out);
    live.show(["x", "y", "z"]);

    live.clear();
    live.clear();
    live.print("after\n");

    expect(out.text()).toBe("x\ny\nz\n\x1b[3A\r\x1b[Jafter\n");
  });

  it("cuts lines to the terminal's width so none wraps (a wrapped line would break the redraw)", () => {
    const out = capture({ columns: 21 });
    const live = new LiveLines(out);

    live.show(["tjdft 120/200 checked 3 requests waiting 8 s for DataJud"]);

    expect(out.text()).toBe("tjdft 120/200 check…\n");
  });
});

describe("fitLine", () => {
  it("keeps a short line and cuts a long one by characters, accents included", () => {
    expect(fitLine("São Paulo", 20)).toBe("São Paulo");
    expect(fitLine("Publicação publicada", 8)).toBe("Publica…");
  });
});
