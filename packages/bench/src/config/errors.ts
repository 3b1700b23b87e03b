/** The errors of configuration resolution. */

/** A knob that cannot be resolved; `knob` names it (a BenchConfig field, or the flag or key that is unknown). */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly knob: string;

  constructor(knob: string, message: string) {
    super(message);
    this.knob = knob;
  }
}

/** Thrown by a knob's parser: what the knob needs. The resolver adds the knob, its source and the raw value. */
export class InvalidValue extends Error {
  override readonly name = 'InvalidValue';
}
