/** `--help`: every knob with its flag, config-file key, environment variable, default and description. */
import { COMMAND_NAMES, COMMANDS } from './argv.js';
import { KNOB_KEYS, KNOBS, TOTAL_POINTS, TOTAL_POINTS_KEY, type KnobSpec } from './knobs.js';

const INTRO = `Usage: iotdb-bench [--config FILE] [--<knob> VALUE | --<knob>=VALUE]... [--help] [--version]
       iotdb-bench ${COMMAND_NAMES.join('|')} ... (commands: below)

IoTDB end-to-end benchmark: writes, queries and mixes of them. Every knob comes from, lowest precedence first: its
default, the --config file (.json, or .yaml/.yml in any YAML: comments, lists, anchors, << merge keys; keys are the
names in [brackets]), its environment variable, its flag. Boolean flags need no value (--verify) but
take one (--verify=false). The sessions (ours, the Java client's) log in as IOTDB_USER / IOTDB_PASSWORD, default
root / root: from the environment only, so that the password is in no result file.

  --config FILE
      read knobs from a JSON or YAML file (the files and directories it names: from its own directory)
  --help, -h
      print this help and exit
  --version
      print the benchmark's version, the client's and Node's, and exit

Commands (the first word; each prints its own usage with --help):

${COMMAND_NAMES.map((name) => `  ${COMMANDS[name].usage}\n      ${COMMANDS[name].about}`).join('\n')}

Knobs:
`;

export function helpText(): string {
  const lines = KNOB_KEYS.map((key) => entry(key, KNOBS[key], KNOBS[key].defaultText));
  lines.push(entry(TOTAL_POINTS_KEY, TOTAL_POINTS, 'none (loop decides)'));
  return `${INTRO}\n${lines.join('\n')}\n`;
}

function entry(key: string, k: KnobSpec<unknown>, defaultText: string): string {
  const usage = k.arg === undefined ? k.flag : `${k.flag} ${k.arg}`;
  return `  ${usage.padEnd(44)} [${key}] env ${k.env}, default ${defaultText}\n      ${k.description}`;
}
