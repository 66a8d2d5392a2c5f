import { createScanner } from "jsonc-parser";
import { appendPointer } from "./json-pointer.js";
import type { SourceSpan } from "./source-map.js";

// jsonc-parser's SyntaxKind is an ambient const enum (unusable under isolatedModules): its values.
const OPEN_BRACE = 1;
const CLOSE_BRACE = 2;
const OPEN_BRACKET = 3;
const CLOSE_BRACKET = 4;
const COMMA = 5;
const STRING = 10;
const EOF = 17;

type Frame = { kind: "array"; index: number } | { kind: "object"; key: string; expectKey: boolean };

/** A container nested deeper than allowed: its pointer and where it opens. */
export interface DepthViolation extends SourceSpan {
  /** JSON Pointer of the container that is too deep. */
  readonly pointer: string;
}

/** The pointer of the value about to start, from the open containers. */
function pointerOf(frames: readonly Frame[]): string {
  let pointer = "";
  for (const frame of frames)
    pointer = appendPointer(pointer, frame.kind === "array" ? frame.index : frame.key);
  return pointer;
}

/**
 * Scans JSON text token by token (no recursion) and returns the first container nested deeper than
 * `maxDepth` (the root container is depth 1), or undefined. Run before a recursive parser so that a
 * hostile, very deep document cannot overflow the stack.
 */
export function scanNestingDepth(text: string, maxDepth: number): DepthViolation | undefined {
  const scanner = createScanner(text, true);
  const frames: Frame[] = [];
  for (let token = scanner.scan(); token !== EOF; token = scanner.scan()) {
    const top = frames[frames.length - 1];
    if (token === OPEN_BRACE || token === OPEN_BRACKET) {
      if (frames.length + 1 > maxDepth) {
        return { pointer: pointerOf(frames), offset: scanner.getTokenOffset(), length: 1 };
      }
      frames.push(
        token === OPEN_BRACE ? { kind: "object", key: "", expectKey: true } : { kind: "array", index: 0 },
      );
    } else if (token === CLOSE_BRACE || token === CLOSE_BRACKET) {
      frames.pop();
    } else if (token === COMMA && top !== undefined) {
      if (top.kind === "array") top.index++;
      else top.expectKey = true;
    } else if (token === STRING && top?.kind === "object" && top.expectKey) {
      top.key = scanner.getTokenValue();
      top.expectKey = false;
    }
  }
  return undefined;
}
