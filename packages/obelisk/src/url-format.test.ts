import { isUrlFormat, URL_FORMAT_SOURCE } from "@obelisk/core";
import { Ajv2020 } from "ajv/dist/2020.js";
import formatsModule from "ajv-formats";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createEngine } from "./index.js";

// ajv-formats' own `url` regex: the reference for every verdict below (decision 0105)
const addFormats = formatsModule.default;
const ajvFormatsUrl = addFormats(new Ajv2020()).formats.url as RegExp;

/** 3,000 colons, then 500 `@a.bc/`: ajv-formats' regex tries every colon × every `@` × the path (cubic). */
const HOSTILE = `http://${":".repeat(3000)}${"@a.bc/".repeat(500)} `;
const urlSchema = { type: "object", properties: { u: { type: "string", format: "url" } } } as const;
const echo = { name: "echo", input: { type: "object" }, run: (args: unknown) => args };

/** The values `RegExp.prototype.test` and `exec` ran ajv-formats' `url` regex on while `action` ran. */
async function urlRegexInputs(action: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const { test, exec } = RegExp.prototype;
  vi.spyOn(RegExp.prototype, "test").mockImplementation(function (this: RegExp, value: string) {
    if (this.source === URL_FORMAT_SOURCE) seen.push(value);
    return test.call(this, value);
  });
  vi.spyOn(RegExp.prototype, "exec").mockImplementation(function (this: RegExp, value: string) {
    if (this.source === URL_FORMAT_SOURCE) seen.push(value);
    return exec.call(this, value);
  });
  await action();
  vi.restoreAllMocks();
  return seen;
}

afterEach(() => vi.restoreAllMocks());

describe("the url format: ajv-formats' verdicts in linear time (decision 0105)", () => {
  it("is ajv-formats' regex, part for part", () => {
    expect(ajvFormatsUrl.source).toBe(URL_FORMAT_SOURCE);
    expect(ajvFormatsUrl.flags).toBe("iu");
  });

  it.each(
    (
      [
        ["http://example.com", true],
        ["https://example.com/", true],
        ["HTTPS://EXAMPLE.COM/A?b=c#d", true],
        ["ftp://ftp.example.org/pub/file.txt", true],
        ["http://www.example.com:8080/path/to?q=1&r=2", true],
        ["http://user:pass@example.com/", true],
        ["http://user@example.com", true],
        ["http://a:b:c@d@example.com/x@y", true],
        ["http://xn--p1ai.xn--p1ai", false], // `--` inside a label: ajv-formats refuses punycode
        ["http://пример.рф/путь", true],
        ["http://a-b-c.d-e.co", true],
        ["http://1.2.3.4", true],
        ["http://223.255.255.254:65535/", true],
        ["http://8.8.8.8/dns", true],
        ["http://10.1.2.3.com", true], // a host name, not an IP
        ["http://example.com/a b", false],
        ["http://exa mple.com", false],
        ["http://us er@example.com", false],
        ["http://@example.com", false],
        ["http://example", false],
        ["http://example.c", false],
        ["http://example.com:8", false],
        ["http://example.com:123456", false],
        ["http://-a.com", false],
        ["http://a-.com", false],
        ["http://a--b.com", false],
        ["http://a..com", false],
        ["mailto:a@example.com", false],
        ["file:///etc/passwd", false],
        ["http:/example.com", false],
        ["//example.com", false],
        ["", false],
        ["http://10.0.0.1", false], // private ranges: the regex's lookaheads refuse them
        ["http://127.0.0.1:8080/", false],
        ["http://169.254.169.254/latest/meta-data", false],
        ["http://192.168.1.1", false],
        ["http://172.16.0.1", false],
        ["http://172.31.255.255", false],
        ["http://172.32.0.1", true],
        ["http://0.0.0.0", false],
        ["http://224.0.0.1", false],
        ["http://1.2.3.255", false],
        ["http://1.2.3.256", false],
        ["http://1.2.3", false],
        ["http://example.com\n", false],
        [HOSTILE, false],
        [`http://${"a:@".repeat(30_000)} `, false],
        [`http://${":".repeat(80_000)}!`, false],
      ] satisfies [string, boolean][]
    ).map(([value, valid]) => ({
      value,
      valid,
      label: value.length > 60 ? `${value.slice(0, 30)}… (${value.length} chars)` : JSON.stringify(value),
    })),
  )("$label → $valid", ({ value, valid }) => {
    expect(isUrlFormat(value)).toBe(valid);
    if (value.length < 300) expect(ajvFormatsUrl.test(value)).toBe(valid);
  });

  it("agrees with ajv-formats' regex on 20,000 generated near-URLs", () => {
    let seed = 41;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pick = (options: readonly string[]) => options[Math.floor(random() * options.length)] ?? "";
    const chars = [
      "a",
      "Z",
      "1",
      "9",
      ".",
      "-",
      ":",
      "@",
      "/",
      " ",
      "\u2028",
      "é",
      "😀",
      "\ud800",
      "?",
      "\n",
    ];
    const token = () => Array.from({ length: Math.floor(random() * 4) }, () => pick(chars)).join("");
    const host = () =>
      random() < 0.35
        ? [pick(["1", "10", "127", "169", "172", "192", "223", "224"]), pick(["254", "168", "16", "31", "0"])]
            .concat([pick(["0", "99", "255", "256"]), pick(["1", "254", "255"])])
            .join(".")
        : Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
            pick(["a", "a-b", "é", "10", "-a", "b-"]),
          )
            .concat(random() < 0.8 ? [pick(["com", "c", "ORG", "a1"])] : [])
            .join(pick([".", ".", "-", ".."]));
    let agreed = 0;
    let valid = 0;
    for (let index = 0; index < 20_000; index++) {
      let value = pick(["http://", "https://", "FTP://", "htp://"]);
      if (random() < 0.5) value += `${token()}${pick(["", ":", "a:"])}${token()}@`;
      value += host();
      if (random() < 0.3) value += `:${pick(["8", "80", "65535", "123456"])}`;
      if (random() < 0.5) value += `/${token()}${pick(["", "@", "/", "@a.com"])}${token()}`;
      if (random() < 0.5) {
        const at = Math.floor(random() * (value.length + 1));
        value = value.slice(0, at) + pick(chars) + value.slice(at + Math.floor(random() * 2));
      }
      const expected = ajvFormatsUrl.test(value);
      if (isUrlFormat(value) === expected) agreed++;
      if (expected) valid++;
    }
    expect(agreed).toBe(20_000);
    expect(valid).toBeGreaterThan(1_000); // the generated values are not all refused
  });
});

describe("a long hostile url is refused without ajv-formats' regex running on it", () => {
  it("through a plan's inputSchema: PARAM_INVALID at the format keyword", async () => {
    const engine = createEngine({ tools: [echo] as never });
    const plan = { type: "plan", inputSchema: urlSchema, plan: [{ _tool: "echo", u: "†input.u" }] };
    let codes: string[][] = [];
    const seen = await urlRegexInputs(async () => {
      const result = await engine.validate(plan as never, { input: { u: HOSTILE } });
      codes = result.diagnostics.map((d) => [d.code, d.pointer]);
    });
    expect(codes).toEqual([["PARAM_INVALID", "/inputSchema/properties/u/format"]]);
    expect(seen).toEqual([]);
    await engine.close();
  });

  it("through a tool's parameter schema (a plan literal): PARAM_INVALID at the argument", async () => {
    const engine = createEngine({ tools: [{ ...echo, name: "fetch", input: urlSchema }] as never });
    let codes: string[][] = [];
    const seen = await urlRegexInputs(async () => {
      const result = await engine.validate([{ _tool: "fetch", u: HOSTILE }] as never);
      codes = result.diagnostics.map((d) => [d.code, d.pointer]);
    });
    expect(codes).toEqual([["PARAM_INVALID", "/0/u"]]);
    expect(seen).toEqual([]);
    await engine.close();
  });

  it("through the host's stateSchema (a tool's output): OUTPUT_SCHEMA_VIOLATION at †state.u", async () => {
    const page = { name: "page", input: { type: "object" }, run: () => HOSTILE };
    const engine = createEngine({ tools: [page] as never, stateSchema: urlSchema as never });
    let error: unknown;
    const seen = await urlRegexInputs(async () => {
      const result = await engine.run({ _tool: "page", _outputPath: "†state.u" } as never);
      error = result.calls.page$1?.error;
    });
    expect(error).toMatchObject({
      code: "OUTPUT_SCHEMA_VIOLATION",
      message: '†state.u must match format "url"',
    });
    expect(seen).toEqual([]);
    await engine.close();
  });
});
