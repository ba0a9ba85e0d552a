/**
 * Shell completion scripts for bash, zsh and fish (docs/cli.md "Completion"), written from the
 * commander program itself so they never drift from the commands: commands, subcommands, every
 * option, exchange ids; account names and pairs come at completion time from
 * `spotdesk completion --list accounts|pairs` (the stored accounts, paper's accounts and pairs).
 */
import type { Command, Option } from "commander";
import { EXCHANGE_IDS } from "../lib/types.js";

interface Spec {
  name: string;
  description: string;
  options: Option[];
  /** names of the positional arguments, in order (pair, id, file, …) */
  args: string[];
  subcommands: Spec[];
}

function specOf(command: Command): Spec {
  return {
    name: command.name(),
    description: command.description(),
    options: command.options.filter((o) => !o.hidden),
    args: command.registeredArguments.map((a) => a.name()),
    subcommands: command.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden).map(specOf),
  };
}

const flags = (options: readonly Option[]) =>
  options.flatMap((o) => [o.short, o.long].filter((f): f is string => f !== undefined));
const takesValue = (o: Option) => o.required || o.optional;
/** A word safe inside single quotes in every shell. */
const quote = (text: string) => text.replace(/'/g, "");

/** Every command with its argument names: the positions where a pair or a file is completed. */
function leaves(root: Spec): { path: string; spec: Spec }[] {
  return root.subcommands.flatMap((c) =>
    c.subcommands.length > 0
      ? c.subcommands.map((s) => ({ path: `${c.name} ${s.name}`, spec: s }))
      : [{ path: c.name, spec: c }],
  );
}

export function bashScript(program: Command): string {
  const root = specOf(program);
  const valueFlags = new Set<string>();
  const visit = (spec: Spec) => {
    for (const o of spec.options) if (takesValue(o)) for (const f of flags([o])) valueFlags.add(f);
    spec.subcommands.forEach(visit);
  };
  visit(root);
  const global = flags(root.options).concat("-h", "--help");
  const optionCases = leaves(root)
    .map(({ path, spec }) => `      "${path}") opts="${flags(spec.options).join(" ")}" ;;`)
    .join("\n");
  const argCases = leaves(root)
    .map(({ path, spec }) => `      "${path}") args="${spec.args.join(" ")}" ;;`)
    .join("\n");
  const groups = root.subcommands.filter((c) => c.subcommands.length > 0);
  const subCases = groups
    .map((g) => `      ${g.name}) subs="${g.subcommands.map((s) => s.name).join(" ")}" ;;`)
    .join("\n");
  return `# spotdesk completion for bash: eval "$(spotdesk completion bash)" in ~/.bashrc
_spotdesk() {
  local cur prev word cmd="" sub="" npos=0 i=1 opts="" args="" subs="" arg
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  COMPREPLY=()
  case "$prev" in
    -e|--exchange) COMPREPLY=( $(compgen -W "${EXCHANGE_IDS.join(" ")}" -- "$cur") ); return 0 ;;
    -a|--account) COMPREPLY=( $(compgen -W "$(spotdesk completion --list accounts 2>/dev/null)" -- "$cur") ); return 0 ;;
    --data|--tls-cert|--tls-key|--config) COMPREPLY=( $(compgen -f -- "$cur") ); return 0 ;;
    ${[...valueFlags].join("|")}) return 0 ;;
  esac
  while [ "$i" -lt "$COMP_CWORD" ]; do
    word="\${COMP_WORDS[i]}"
    case "$word" in
      ${[...valueFlags].join("|")}) i=$((i + 2)); continue ;;
      -*) ;;
      *)
        if [ -z "$cmd" ]; then cmd="$word"
        elif [ -z "$sub" ]; then
          case "$cmd" in
            ${groups.map((g) => g.name).join("|") || "__none__"}) sub="$word" ;;
            *) npos=$((npos + 1)) ;;
          esac
        else npos=$((npos + 1)); fi ;;
    esac
    i=$((i + 1))
  done
  if [ -z "$cmd" ]; then
    case "$cur" in
      -*) COMPREPLY=( $(compgen -W "${global.join(" ")}" -- "$cur") ) ;;
      *) COMPREPLY=( $(compgen -W "${root.subcommands.map((c) => c.name).join(" ")}" -- "$cur") ) ;;
    esac
    return 0
  fi
  case "$cmd" in
${subCases || "      __none__) ;;"}
  esac
  if [ -n "$subs" ] && [ -z "$sub" ]; then
    COMPREPLY=( $(compgen -W "$subs" -- "$cur") )
    return 0
  fi
  case "$cmd\${sub:+ $sub}" in
${optionCases}
  esac
  case "$cur" in
    -*) COMPREPLY=( $(compgen -W "$opts ${global.join(" ")}" -- "$cur") ); return 0 ;;
  esac
  case "$cmd\${sub:+ $sub}" in
${argCases}
  esac
  set -- $args
  shift "$npos" 2>/dev/null || set --
  arg="\${1:-}"
  case "$arg" in
    pair) COMPREPLY=( $(compgen -W "$(spotdesk completion --list pairs 2>/dev/null)" -- "$cur") ) ;;
    file) COMPREPLY=( $(compgen -f -- "$cur") ) ;;
    shell) COMPREPLY=( $(compgen -W "bash zsh fish" -- "$cur") ) ;;
  esac
  return 0
}
complete -F _spotdesk spotdesk
`;
}

/** zsh runs the bash function through its bash completion layer (bashcompinit, part of zsh). */
export function zshScript(program: Command): string {
  return `#compdef spotdesk
# spotdesk completion for zsh: eval "$(spotdesk completion zsh)" in ~/.zshrc
autoload -U +X compinit && compinit
autoload -U +X bashcompinit && bashcompinit
${bashScript(program).replace(/^# spotdesk completion for bash.*\n/, "")}`;
}

export function fishScript(program: Command): string {
  const root = specOf(program);
  const lines = ["# spotdesk completion for fish: spotdesk completion fish > ~/.config/fish/completions/spotdesk.fish"];
  lines.push("complete -c spotdesk -f");
  const names = root.subcommands.map((c) => c.name);
  const option = (o: Option, condition?: string) => {
    const parts = ["complete -c spotdesk"];
    if (condition) parts.push(`-n '${condition}'`);
    if (o.short) parts.push(`-s ${o.short.slice(1)}`);
    if (o.long) parts.push(`-l ${o.long.slice(2)}`);
    if (takesValue(o)) parts.push("-r");
    if (o.long === "--exchange") parts.push(`-x -a '${EXCHANGE_IDS.join(" ")}'`);
    if (o.long === "--account") parts.push("-x -a '(spotdesk completion --list accounts 2>/dev/null)'");
    parts.push(`-d '${quote(o.description)}'`);
    return parts.join(" ");
  };
  for (const o of root.options) lines.push(option(o));
  for (const c of root.subcommands) {
    lines.push(`complete -c spotdesk -n '__fish_use_subcommand' -a ${c.name} -d '${quote(c.description)}'`);
    const inCommand = `__fish_seen_subcommand_from ${c.name}`;
    if (c.subcommands.length > 0) {
      const subs = c.subcommands.map((s) => s.name).join(" ");
      for (const s of c.subcommands) {
        lines.push(
          `complete -c spotdesk -n '${inCommand}; and not __fish_seen_subcommand_from ${subs}' -a ${s.name} -d '${quote(s.description)}'`,
        );
        for (const o of s.options) lines.push(option(o, `${inCommand}; and __fish_seen_subcommand_from ${s.name}`));
      }
    }
    for (const o of c.options) lines.push(option(o, inCommand));
  }
  const withPair = leaves(root)
    .filter(({ spec }) => spec.args.includes("pair"))
    .map(({ path }) => path.split(" ")[0]!);
  lines.push(
    `complete -c spotdesk -n '__fish_seen_subcommand_from ${[...new Set(withPair)].join(" ")}' -a '(spotdesk completion --list pairs 2>/dev/null)'`,
  );
  lines.push("complete -c spotdesk -n '__fish_seen_subcommand_from batch' -F");
  lines.push("complete -c spotdesk -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'");
  lines.push(`# commands: ${names.join(" ")}`);
  return `${lines.join("\n")}\n`;
}
