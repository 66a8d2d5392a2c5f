import type { Node } from "jsonc-parser";
import type { SourcePosition } from "./diagnostic.js";
import { parsePointer } from "./json-pointer.js";

/** Maps JSON Pointers and character offsets of a submitted document to 1-based line/column positions. */
export interface SourceMap {
  /** The submitted text. */
  readonly text: string;
  /** Where the value at `pointer` starts (for an object member: its value), or undefined if absent. */
  positionOf(pointer: string): SourcePosition | undefined;
  /** The line/column of a 0-based character offset (clamped to the text). */
  positionOfOffset(offset: number): SourcePosition;
}

/** A located span of the text, by 0-based offset and length in characters. */
export interface SourceSpan {
  /** 0-based character offset. */
  readonly offset: number;
  /** Length in characters. */
  readonly length: number;
}

/** Offsets at which each line starts (line terminators: `\n`, `\r\n`, `\r`). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 10) starts.push(index + 1);
    else if (code === 13) {
      if (text.charCodeAt(index + 1) === 10) index++;
      starts.push(index + 1);
    }
  }
  return starts;
}

/** The 0-based index of the line containing `offset` (binary search). */
function lineIndexOf(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] ?? 0) <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * Objects of more members than this get an index of their keys on their first lookup: a scan of the
 * members per lookup made a diagnostic per member of one object quadratic (20,000 keys: 14 s).
 */
const INDEXED_MEMBERS = 16;
/** The value node of each key (the last one of a repeated key), by object node. */
const memberIndexes = new WeakMap<Node, Map<unknown, Node | undefined>>();

/** The value node of the member `key` of the object `node` (its `children`); the last one wins. */
function memberValue(node: Node, children: readonly Node[], key: string): Node | undefined {
  let index = memberIndexes.get(node);
  if (index === undefined) {
    if (children.length <= INDEXED_MEMBERS) {
      let found: Node | undefined;
      for (const property of children)
        if (property.children?.[0]?.value === key) found = property.children[1];
      return found;
    }
    index = new Map();
    for (const property of children) {
      const name = property.children?.[0]?.value;
      if (name !== undefined) index.set(name, property.children?.[1]);
    }
    memberIndexes.set(node, index);
  }
  return index.get(key);
}

/** Finds the tree node at a pointer; for duplicate keys the last one wins (as in JSON.parse). */
function nodeAt(root: Node, pointer: string): Node | undefined {
  let node: Node | undefined = root;
  for (const token of parsePointer(pointer)) {
    if (node === undefined) return undefined;
    const children: Node[] = node.children ?? [];
    if (node.type === "array") {
      node = /^(0|[1-9][0-9]*)$/.test(token) ? children[Number(token)] : undefined;
    } else if (node.type === "object") {
      node = memberValue(node, children, token);
    } else {
      return undefined;
    }
  }
  return node;
}

/** Creates a source map over `text`, locating pointers through a jsonc-parser tree and known extra spans. */
export function createSourceMap(
  text: string,
  root: Node | undefined,
  extra: ReadonlyMap<string, SourceSpan> = new Map(),
): SourceMap {
  let starts: number[] | undefined;
  const positionOfOffset = (offset: number, length = 0): SourcePosition => {
    starts ??= lineStarts(text);
    const clamped = Math.max(0, Math.min(Math.trunc(offset) || 0, text.length));
    const line = lineIndexOf(starts, clamped);
    return { line: line + 1, column: clamped - (starts[line] ?? 0) + 1, offset: clamped, length };
  };
  return {
    text,
    positionOfOffset: (offset) => positionOfOffset(offset),
    positionOf(pointer) {
      const span = extra.get(pointer) ?? (root === undefined ? undefined : nodeAt(root, pointer));
      return span === undefined ? undefined : positionOfOffset(span.offset, span.length);
    },
  };
}
