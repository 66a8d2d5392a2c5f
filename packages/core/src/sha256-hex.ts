import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

interface NativeDigest {
  update(text: string, encoding: "utf8"): NativeDigest;
  digest(encoding: "hex"): string;
}

interface NativeHash {
  createHash(algorithm: "sha256"): NativeDigest;
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

/** An incremental SHA-256 over the UTF-8 encoding of text given in pieces. */
export interface Sha256Stream {
  /** Adds the UTF-8 bytes of `text` (split texts only between code points). */
  update(text: string): void;
  /** The digest of everything added, as 64 lowercase hex digits. */
  digestHex(): string;
}

/** An incremental SHA-256 (native when the host has it, else @noble/hashes); same digests as `sha256Hex`. */
export function createSha256(): Sha256Stream {
  if (native !== undefined) {
    const hash = native.createHash("sha256");
    return {
      update: (text) => {
        hash.update(text, "utf8");
      },
      digestHex: () => hash.digest("hex"),
    };
  }
  const hash = sha256.create();
  return {
    update: (text) => {
      hash.update(utf8ToBytes(text));
    },
    digestHex: () => bytesToHex(hash.digest()),
  };
}
