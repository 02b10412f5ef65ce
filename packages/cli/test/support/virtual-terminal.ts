/**
 * What a person sees in a terminal after some output: a screen of lines, where `\r` returns to the
 * start of the line, `\n` moves to the next, ESC[2K erases the line, colours (ESC[…m) change nothing
 * visible, and other characters overwrite what stands at the cursor. Enough of a VT100 for the
 * sequences `scimkit check` writes; any other escape sequence is an error, so the test sees it.
 */
export class VirtualTerminal {
  readonly #lines: string[] = [''];
  #row = 0;
  #column = 0;
  /** The raw bytes written, as they came. */
  raw = '';

  write(text: string): void {
    this.raw += text;
    for (let i = 0; i < text.length; i++) {
      const char = text[i]!;
      if (char === '\u001b') {
        const sequence = /^\u001b\[([0-9;]*)([A-Za-z])/.exec(text.slice(i));
        if (sequence === null) throw new Error(`An escape sequence the terminal does not know at ${JSON.stringify(text.slice(i, i + 8))}`);
        const [whole, parameters, command] = sequence;
        if (command === 'K' && parameters === '2') this.#lines[this.#row] = '';
        else if (command !== 'm') throw new Error(`An escape sequence the terminal does not know: ${JSON.stringify(whole)}`);
        i += whole.length - 1;
      } else if (char === '\r') {
        this.#column = 0;
      } else if (char === '\n') {
        this.#row++;
        this.#column = 0;
        if (this.#lines.length <= this.#row) this.#lines.push('');
      } else {
        const line = this.#lines[this.#row]!.padEnd(this.#column);
        this.#lines[this.#row] = line.slice(0, this.#column) + char + line.slice(this.#column + 1);
        this.#column++;
      }
    }
  }

  /** The screen, trailing spaces trimmed (the last line is the one the cursor is on). */
  get lines(): string[] {
    return this.#lines.map((line) => line.trimEnd());
  }

  /** The line the cursor is on. */
  get current(): string {
    return this.#lines[this.#row]!.trimEnd();
  }
}
