import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

interface NativeHash {
  createHash(algorithm: "sha256"): {
    update(text: string, encoding: "utf8"): { digest(encoding: "hex"): string };
  };
}

/** The host's native crypto when the runtime offers it synchronously (Node ≥ 20.16), without importing it. */
function nativeCrypto(): NativeHash | undefined {
  try {
    const host = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
    const crypto = host.process?.getBuiltinModule?.("node:crypto") as Partial<NativeHash> | undefined;
    return typeof crypto?.createHash === "function" ? (crypto as NativeHash) : undefined;
  } catch {
    return undefined;
  }
}

const native = nativeCrypto();

/** SHA-256 of `text` with the portable implementation (@noble/hashes). */
export function sha256HexPortable(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

/**
 * SHA-256 of the UTF-8 encoding of `text`, as 64 lowercase hex digits: native crypto when the host has
 * it (several times faster on large plans), else @noble/hashes. Both give the same digest.
 */
export function sha256Hex(text: string): string {
  return native === undefined
    ? sha256HexPortable(text)
    : native.createHash("sha256").update(text, "utf8").digest("hex");
}
