/** Pieces joined into one string at a time: a block holds at least this many characters. */
const PIECES_PER_BLOCK = 256;

/**
 * The text of one value as the chunks of a stream bring it, piece by piece. Pieces are joined into blocks
 * as they come: a model's tokens are 1–4 characters, and a string per piece (with its array slot) held
 * 9–30 bytes per character of text — a value of 16 MB in one-character tokens held about 400 MB. Blocks
 * hold about the text's own size. Each character is copied twice in all (into its block, into the text).
 */
export class ValueTextPieces {
  private pieces: string[] = [];
  private blocks: string[] = [];

  /** Adds the next piece of the text. */
  push(piece: string): void {
    if (piece.length === 0) return;
    this.pieces.push(piece);
    if (this.pieces.length < PIECES_PER_BLOCK) return;
    this.blocks.push(this.pieces.join(""));
    this.pieces = [];
  }

  /** The strings held (blocks and pieces not yet in one): at most 1 per 256 characters, plus 255. */
  get strings(): number {
    return this.blocks.length + this.pieces.length;
  }

  /** The text so far followed by `tail`. */
  text(tail: string): string {
    if (this.blocks.length === 0 && this.pieces.length === 0) return tail;
    return this.blocks.join("") + this.pieces.join("") + tail;
  }

  /** Forgets the text (the value ended). */
  clear(): void {
    if (this.blocks.length > 0) this.blocks = [];
    if (this.pieces.length > 0) this.pieces = [];
  }
}
