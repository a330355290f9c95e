/**
 * The small CBOR (RFC 8949) the mdoc check needs (decision 184): a strict decoder for untrusted input
 * (definite lengths only, no duplicate map keys, integers within 2^53, a depth and item limit) and a
 * deterministic encoder (shortest heads, the order the caller gives) for the structures we sign or
 * hash ourselves. A library (cbor-x, cbor2) would be larger and cbor-x compiles readers with
 * `new Function`, which workerd refuses.
 */

export class CborError extends Error {}

/** Bytes WebCrypto accepts as they are. */
export type Bytes = Uint8Array<ArrayBuffer>;

/** A tagged item. For tag 24 (embedded CBOR) `raw` keeps the item's exact bytes: digests are over them. */
export class Tagged {
  constructor(
    readonly tag: number,
    readonly value: CborValue,
    readonly raw?: Bytes,
  ) {}
}

export type CborValue =
  | number
  | string
  | boolean
  | null
  | undefined
  | Bytes
  | CborValue[]
  | Map<CborValue, CborValue>
  | Tagged;

const MAX_DEPTH = 16;
const MAX_ITEMS = 10_000;

/** Decodes exactly one item filling `data`; throws CborError on anything malformed. */
export function decodeCbor(data: Uint8Array): CborValue {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let pos = 0;
  let items = 0;
  const need = (n: number) => {
    if (n > data.length - pos) throw new CborError("truncated");
  };
  /** Consumes n bytes; returns where they start. */
  const take = (n: number) => {
    need(n);
    return (pos += n) - n;
  };
  const head = (info: number): number => {
    if (info < 24) return info;
    if (info === 24) return view.getUint8(take(1));
    if (info === 25) return view.getUint16(take(2));
    if (info === 26) return view.getUint32(take(4));
    if (info === 27) {
      const at = take(8);
      const hi = view.getUint32(at);
      const lo = view.getUint32(at + 4);
      if (hi >= 0x200000) throw new CborError("integer too large");
      return hi * 0x1_0000_0000 + lo;
    }
    throw new CborError("indefinite or reserved length");
  };
  const item = (depth: number): CborValue => {
    if (depth > MAX_DEPTH || ++items > MAX_ITEMS) throw new CborError("too deep or too many items");
    need(1);
    const start = pos;
    const ib = view.getUint8(pos++);
    const major = ib >> 5;
    const info = ib & 31;
    if (major === 7) {
      if (info === 20) return false;
      if (info === 21) return true;
      if (info === 22) return null;
      if (info === 23) return undefined;
      if (info === 25) return half(view.getUint16(take(2)));
      if (info === 26) return view.getFloat32(take(4));
      if (info === 27) return view.getFloat64(take(8));
      throw new CborError("unsupported simple value");
    }
    const n = head(info);
    switch (major) {
      case 0:
        return n;
      case 1:
        return -1 - n;
      case 2: {
        const at = take(n);
        return data.slice(at, at + n);
      }
      case 3: {
        const at = take(n);
        return utf8(data.subarray(at, at + n));
      }
      case 4: {
        if (n > data.length - pos) throw new CborError("truncated");
        const out: CborValue[] = [];
        for (let i = 0; i < n; i++) out.push(item(depth + 1));
        return out;
      }
      case 5: {
        if (n > data.length - pos) throw new CborError("truncated");
        const out = new Map<CborValue, CborValue>();
        for (let i = 0; i < n; i++) {
          const k = item(depth + 1);
          if (typeof k !== "string" && typeof k !== "number") throw new CborError("unsupported map key");
          if (out.has(k)) throw new CborError("duplicate map key");
          out.set(k, item(depth + 1));
        }
        return out;
      }
      default: {
        const value = item(depth + 1);
        return new Tagged(n, value, n === 24 ? data.slice(start, pos) : undefined);
      }
    }
  };
  const value = item(0);
  if (pos !== data.length) throw new CborError("trailing bytes");
  return value;
}

const decoder = new TextDecoder("utf-8", { fatal: true });
function utf8(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw new CborError("invalid UTF-8");
  }
}

function half(h: number): number {
  const exp = (h >> 10) & 31;
  const mant = h & 1023;
  const v = exp === 0 ? mant * 2 ** -24 : exp === 31 ? (mant ? NaN : Infinity) : (mant + 1024) * 2 ** (exp - 25);
  return h & 0x8000 ? -v : v;
}

/** Encodes deterministically (shortest heads; map entries in insertion order; integers only). */
export function encodeCbor(value: CborValue): Bytes {
  const parts: number[] = [];
  const headOf = (major: number, n: number) => {
    const m = major << 5;
    if (n < 24) parts.push(m | n);
    else if (n < 0x100) parts.push(m | 24, n);
    else if (n < 0x10000) parts.push(m | 25, n >> 8, n & 255);
    else if (n < 0x1_0000_0000) parts.push(m | 26, n >>> 24, (n >> 16) & 255, (n >> 8) & 255, n & 255);
    else {
      const hi = Math.floor(n / 0x1_0000_0000);
      parts.push(m | 27, hi >>> 24, (hi >> 16) & 255, (hi >> 8) & 255, hi & 255);
      parts.push(n >>> 24, (n >> 16) & 255, (n >> 8) & 255, n & 255);
    }
  };
  const bytes = (b: Uint8Array) => {
    for (const x of b) parts.push(x);
  };
  const put = (v: CborValue) => {
    if (v === false) parts.push(0xf4);
    else if (v === true) parts.push(0xf5);
    else if (v === null) parts.push(0xf6);
    else if (v === undefined) parts.push(0xf7);
    else if (typeof v === "number") {
      if (!Number.isSafeInteger(v)) throw new CborError("only integers are encoded");
      if (v >= 0) headOf(0, v);
      else headOf(1, -1 - v);
    } else if (typeof v === "string") {
      const b = new TextEncoder().encode(v);
      headOf(3, b.length);
      bytes(b);
    } else if (v instanceof Uint8Array) {
      headOf(2, v.length);
      bytes(v);
    } else if (Array.isArray(v)) {
      headOf(4, v.length);
      v.forEach(put);
    } else if (v instanceof Map) {
      headOf(5, v.size);
      for (const [k, x] of v) {
        put(k);
        put(x);
      }
    } else {
      headOf(6, v.tag);
      put(v.value);
    }
  };
  put(value);
  return Uint8Array.from(parts);
}

/** Embedded CBOR: #6.24(bstr .cbor value). */
export const embed = (value: CborValue) => new Tagged(24, encodeCbor(value));

/** A map from plain entries (keys in this order). */
export const cborMap = (entries: [string | number, CborValue][]) => new Map<CborValue, CborValue>(entries);
