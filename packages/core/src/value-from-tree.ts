import type { Node } from "jsonc-parser";
import type { Diagnostic } from "./diagnostic.js";
import { setOwn } from "./json-container.js";
import { appendPointer } from "./json-pointer.js";
import type { Limits } from "./limits.js";
import { planDiagnostic } from "./plan-diagnostic.js";
import {
  depthLimitDiagnostic,
  MAX_LIMIT_DIAGNOSTICS,
  stringLimitDiagnostic,
} from "./plan-limit-diagnostics.js";

/** A number literal too large for a double (`1e999`): JSON.parse would read it as ±Infinity. */
function numberRangeDiagnostic(pointer: string): Diagnostic {
  return planDiagnostic(
    "JSON_SYNTAX",
    "a number is out of range (it is not a finite double)",
    pointer,
    "write a smaller number, or the value as a string",
  );
}

/** A nonzero number literal too small for a double (`1e-400`): JSON.parse would read it as 0. */
function numberUnderflowDiagnostic(pointer: string): Diagnostic {
  return planDiagnostic(
    "JSON_SYNTAX",
    "a number is too small for a double (it would read as 0)",
    pointer,
    "write 0 if that is meant, or the value as a string",
  );
}

/** True when a literal that parsed to 0 has a nonzero digit before its exponent. */
const underflows = (literal: string): boolean => /[1-9]/.test(literal.split(/[eE]/)[0] ?? "");

/**
 * An integer literal beyond ±2^53 that a double cannot hold exactly (`12345678901234567890` reads as
 * `12345678901234567000`): two different texts would run as, and hash like, the same plan.
 */
function numberPrecisionDiagnostic(pointer: string, literal: string): Diagnostic {
  return planDiagnostic(
    "JSON_SYNTAX",
    `the number ${literal.length > 40 ? `${literal.slice(0, 40)}…` : literal} cannot be held exactly (it is beyond ±2^53)`,
    pointer,
    "write it as a string (an id, an account number), or as a number within ±9007199254740991",
  );
}

/** What the plan readers name the text they read: the subject whose hints speak of a plan. */
export const PLAN_SUBJECT = "plan";

/**
 * A member name that occurs twice in one object: JSON.parse keeps the last, a reader sees the first. The
 * hint speaks of a plan only when the text is one (`subject` {@link PLAN_SUBJECT}).
 */
function duplicateKeyDiagnostic(pointer: string, key: string, subject: string): Diagnostic {
  return planDiagnostic(
    "JSON_SYNTAX",
    `the key ${JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key)} occurs twice in one object`,
    pointer,
    subject === PLAN_SUBJECT
      ? "keep one of them: a plan must say each thing once (the approved text would not be what runs)"
      : "keep one of them: JSON.parse would silently keep the last",
  );
}

/** A decimal literal's exact value as `digits × 10^-scale` (scale ≥ 0), or undefined when it is not one. */
function exactDecimal(text: string): { digits: bigint; scale: number } | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (match === null) return undefined;
  const [, sign, whole, fraction = "", exponent = "0"] = match;
  let scale = fraction.length - Number(exponent);
  let digits = BigInt(`${sign}${whole}${fraction}`);
  if (scale < 0) {
    digits *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { digits, scale };
}

/** True when two exact decimals are the same number. */
function sameDecimal(a: { digits: bigint; scale: number }, b: { digits: bigint; scale: number }): boolean {
  const scale = Math.max(a.scale, b.scale);
  return a.digits * 10n ** BigInt(scale - a.scale) === b.digits * 10n ** BigInt(scale - b.scale);
}

/**
 * True when a number literal beyond ±2^53 names another number than the double it parsed to: neither that
 * double's exact value nor its shortest text (`JSON.stringify` writes 2^60 as 1152921504606847000), in any
 * spelling (`9007199254740993`, `9007199254740993.0`, `9007199254740993e0`, `9007199254740992.5`).
 */
function losesPrecision(value: number, literal: string): boolean {
  if (Math.abs(value) <= Number.MAX_SAFE_INTEGER || literal === String(value)) return false;
  const exact = exactDecimal(literal);
  if (exact === undefined) return false;
  const shortest = exactDecimal(String(value));
  if (shortest !== undefined && sameDecimal(exact, shortest)) return false;
  return !sameDecimal(exact, { digits: BigInt(value), scale: 0 });
}

interface Pending {
  readonly node: Node;
  readonly target: unknown[] | Record<string, unknown>;
  readonly pointer: string;
  readonly depth: number;
}

/**
 * Builds plain data from a jsonc-parser tree without recursion, checking `maxDepth` (descent stops
 * at a too-deep container) and `maxStringLength` (values and keys). A key repeated in one object and an
 * integer a double cannot hold exactly (read from `text`, the source of the tree) are `JSON_SYNTAX`.
 * `subject` names the text in the hints (see {@link duplicateKeyDiagnostic}).
 */
export function valueFromTree(
  root: Node,
  limits: Limits,
  text: string,
  subject: string,
): { value: unknown; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const pending: Pending[] = [];
  const build = (node: Node, pointer: string, depth: number): unknown => {
    switch (node.type) {
      case "object":
      case "array": {
        if (depth > limits.maxDepth) {
          diagnostics.push(depthLimitDiagnostic(pointer, limits));
          return node.type === "array" ? [] : {};
        }
        const target = node.type === "array" ? [] : {};
        pending.push({ node, target, pointer, depth });
        return target;
      }
      case "string":
        if (typeof node.value === "string" && node.value.length > limits.maxStringLength) {
          diagnostics.push(stringLimitDiagnostic(node.value.length, pointer, limits, false));
        }
        return node.value;
      case "number":
        if (!Number.isFinite(node.value)) {
          diagnostics.push(numberRangeDiagnostic(pointer));
          return null;
        }
        if (node.value === 0 && underflows(text.slice(node.offset, node.offset + node.length))) {
          diagnostics.push(numberUnderflowDiagnostic(pointer));
          return 0;
        }
        if (losesPrecision(node.value, text.slice(node.offset, node.offset + node.length))) {
          diagnostics.push(
            numberPrecisionDiagnostic(pointer, text.slice(node.offset, node.offset + node.length)),
          );
        }
        // JSON has one zero: "-0" reads as 0, as the plan's canonical text (its hash) writes it.
        return node.value === 0 ? 0 : node.value;
      default:
        return node.value;
    }
  };
  const value = build(root, "", 1);
  while (pending.length > 0 && diagnostics.length < MAX_LIMIT_DIAGNOSTICS) {
    const { node, target, pointer, depth } = pending.pop()!;
    const children = node.children ?? [];
    if (Array.isArray(target)) {
      children.forEach((child, index) => {
        target.push(build(child, appendPointer(pointer, index), depth + 1));
      });
      continue;
    }
    for (const property of children) {
      const [keyNode, valueNode] = property.children ?? [];
      if (keyNode === undefined || valueNode === undefined) continue;
      const key = String(keyNode.value);
      const childPointer = appendPointer(pointer, key);
      if (key.length > limits.maxStringLength) {
        diagnostics.push(stringLimitDiagnostic(key.length, childPointer, limits, true));
      }
      if (Object.hasOwn(target, key)) diagnostics.push(duplicateKeyDiagnostic(childPointer, key, subject));
      setOwn(target, key, build(valueNode, childPointer, depth + 1));
    }
  }
  return { value, diagnostics: diagnostics.slice(0, MAX_LIMIT_DIAGNOSTICS) };
}
