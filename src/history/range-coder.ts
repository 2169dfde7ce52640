// An adaptive binary range coder (the one LZMA uses: 11-bit probabilities, each moving 1/32 of
// the way towards what it sees) and a coding of non-negative integers on top of it. Stored
// timelines are columns of small noisy integers; gzip spends about a third more than their
// entropy on them (Huffman codes whole bytes, and its string matches find nothing in noise),
// this coder a few percent. Pure; the run page in the browser decodes with it too.

const PROB_BITS = 11;
const PROB_ONE = 1 << PROB_BITS;
const MOVE_BITS = 5;
const TOP = 2 ** 24;
const TWO_32 = 2 ** 32;
/** Bits of a number's mantissa (after its leading 1) that are modelled; the rest are coded at even odds. */
const MODELLED_BITS = 8;
const MAX_EXPONENT = 53;

/**
 * Adaptive probabilities for coding integers of one kind (a column): the exponent in unary, then
 * the mantissa's top bits as a tree under each exponent.
 */
export class IntegerModel {
  readonly exponent = new Uint16Array(MAX_EXPONENT + 1).fill(PROB_ONE / 2);
  readonly mantissa: Uint16Array[] = [];

  tree(exponent: number): Uint16Array {
    let t = this.mantissa[exponent];
    if (!t) {
      t = new Uint16Array(1 << Math.min(exponent, MODELLED_BITS)).fill(PROB_ONE / 2);
      this.mantissa[exponent] = t;
    }
    return t;
  }
}

export class RangeEncoder {
  private low = 0;
  private range = 0xffffffff;
  private cache = 0;
  private cacheSize = 1;
  private readonly out: number[] = [];

  bit(probs: Uint16Array, index: number, bit: number): void {
    const p = probs[index]!;
    const bound = (this.range >>> PROB_BITS) * p;
    if (bit === 0) {
      this.range = bound;
      probs[index] = p + ((PROB_ONE - p) >> MOVE_BITS);
    } else {
      this.low += bound;
      this.range -= bound;
      probs[index] = p - (p >> MOVE_BITS);
    }
    while (this.range < TOP) {
      this.range = (this.range * 256) >>> 0;
      this.shiftLow();
    }
  }

  /** A bit at even odds (no model). */
  evenBit(bit: number): void {
    this.range = this.range >>> 1;
    if (bit !== 0) this.low += this.range;
    while (this.range < TOP) {
      this.range = (this.range * 256) >>> 0;
      this.shiftLow();
    }
  }

  /** A non-negative integer (up to 2^53 − 2): n + 1 as its bit length in unary, then its bits after the leading 1. */
  uint(model: IntegerModel, value: number): void {
    if (!Number.isSafeInteger(value) || value < 0 || value >= Number.MAX_SAFE_INTEGER) throw new Error(`cannot code ${value}`);
    const v = value + 1;
    const exponent = Math.floor(Math.log2(v));
    // Math.log2 can be off by one near powers of two: settle it exactly.
    const e = 2 ** exponent > v ? exponent - 1 : 2 ** (exponent + 1) <= v ? exponent + 1 : exponent;
    for (let i = 0; i < e; i++) this.bit(model.exponent, i, 1);
    if (e < MAX_EXPONENT) this.bit(model.exponent, e, 0);
    const tree = model.tree(e);
    let node = 1;
    for (let i = e - 1; i >= 0; i--) {
      const b = Math.floor(v / 2 ** i) % 2;
      if (e - 1 - i < MODELLED_BITS) {
        this.bit(tree, node, b);
        node = node * 2 + b;
      } else this.evenBit(b);
    }
  }

  int(model: IntegerModel, value: number): void {
    this.uint(model, zigzag(value));
  }

  private shiftLow(): void {
    if (this.low < 0xff000000 || this.low >= TWO_32) {
      const carry = this.low >= TWO_32 ? 1 : 0;
      let temp = this.cache;
      do {
        this.out.push((temp + carry) & 0xff);
        temp = 0xff;
      } while (--this.cacheSize !== 0);
      this.cache = (this.low >>> 24) & 0xff;
    }
    this.cacheSize++;
    this.low = (this.low % TOP) * 256;
  }

  finish(): number[] {
    for (let i = 0; i < 5; i++) this.shiftLow();
    return this.out;
  }
}

export class RangeDecoder {
  private range = 0xffffffff;
  private code = 0;
  private at: number;

  constructor(
    private readonly data: Uint8Array,
    start: number,
  ) {
    this.at = start;
    if (this.next() !== 0) throw new Error('the coded timelines do not start as they should');
    for (let i = 0; i < 4; i++) this.code = this.code * 256 + this.next();
    if (this.code === 0xffffffff) throw new Error('the coded timelines do not start as they should');
  }

  bit(probs: Uint16Array, index: number): number {
    const p = probs[index]!;
    const bound = (this.range >>> PROB_BITS) * p;
    let bit: number;
    if (this.code < bound) {
      this.range = bound;
      probs[index] = p + ((PROB_ONE - p) >> MOVE_BITS);
      bit = 0;
    } else {
      this.code -= bound;
      this.range -= bound;
      probs[index] = p - (p >> MOVE_BITS);
      bit = 1;
    }
    this.normalize();
    return bit;
  }

  evenBit(): number {
    this.range = this.range >>> 1;
    let bit = 0;
    if (this.code >= this.range) {
      this.code -= this.range;
      bit = 1;
    }
    this.normalize();
    return bit;
  }

  uint(model: IntegerModel): number {
    let e = 0;
    while (e < MAX_EXPONENT && this.bit(model.exponent, e) === 1) e++;
    const tree = model.tree(e);
    let node = 1;
    let v = 1;
    for (let i = e - 1; i >= 0; i--) {
      let b: number;
      if (e - 1 - i < MODELLED_BITS) {
        b = this.bit(tree, node);
        node = node * 2 + b;
      } else b = this.evenBit();
      v = v * 2 + b;
    }
    if (v - 1 >= Number.MAX_SAFE_INTEGER) throw new Error('a number in the coded timelines is too long');
    return v - 1;
  }

  int(model: IntegerModel): number {
    return unzigzag(this.uint(model));
  }

  /** Whether the stream ended where the encoder's did (every byte read, none invented). */
  done(): boolean {
    return this.at === this.data.length;
  }

  private normalize(): void {
    while (this.range < TOP) {
      this.range = (this.range * 256) >>> 0;
      this.code = (this.code % TOP) * 256 + this.next();
    }
  }

  private next(): number {
    if (this.at >= this.data.length) throw new Error('the timelines end early');
    return this.data[this.at++]!;
  }
}

export function zigzag(n: number): number {
  return n >= 0 ? n * 2 : -n * 2 - 1;
}

export function unzigzag(n: number): number {
  return n % 2 === 0 ? n / 2 : -(n + 1) / 2;
}
