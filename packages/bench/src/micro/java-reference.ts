import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The Java client's codec rates from java/codec.sh (points/s), or null when Java is not on the machine. */
export interface JavaCodecRates {
  encodePointsPerS: number;
  decodePointsPerS: number;
}

const script = fileURLToPath(new URL('../../java/codec.sh', import.meta.url));

export function runJavaCodec(seconds: number): JavaCodecRates | null {
  try {
    execFileSync('java', ['-version'], { stdio: 'ignore' });
  } catch {
    return null;
  }
  const out = execFileSync('bash', [script, String(seconds)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const rate = (name: string): number => {
    const m = new RegExp(`CODEC ${name} points_per_s=(\\d+)`).exec(out);
    if (!m) throw new Error(`java/codec.sh printed no ${name} line:\n${out}`);
    return Number(m[1]);
  };
  return { encodePointsPerS: rate('encode_tablet_500x50'), decodePointsPerS: rate('decode_tsblock_5000x50') };
}
