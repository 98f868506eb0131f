"""`corr completion SHELL`: a static completion script for bash, zsh or fish.

The script is written out once from the command tree (commands, subcommands, options,
the values an option takes where it names them) and never calls corr back: a TAB costs
nothing, and corr's own start-up is what it was (Typer's completion would run corr on
every TAB and load its machinery on every command). Install it once:

    corr completion bash > ~/.local/share/bash-completion/completions/corr
    corr completion zsh > "${fpath[1]}/_corr"
    corr completion fish > ~/.config/fish/completions/corr.fish
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Annotated, Any

import typer

from corr.cli.app import app

SHELLS = ("bash", "zsh", "fish")
#: The values of options the commands check themselves (click sees plain text).
VALUES = {"--format": ("text", "html", "json", "none"), "-f": ("text", "html", "json", "none"),
          "--color": ("auto", "always", "never"), "--level": ("random", "greedy", "strong")}


@dataclass
class Node:
    """A command as completion sees it: its words, options and the values they take."""

    path: tuple[str, ...]
    help: str = ""
    children: dict[str, Node] = field(default_factory=dict)
    options: dict[str, tuple[str, ...]] = field(default_factory=dict)  # option -> values ((): any, files)
    flags: tuple[str, ...] = ()  # options that take no value
    games: bool = False  # its first argument is a game name (`corr new GAME`)


def tree() -> Node:
    """Every command of `corr`, from the Click command Typer builds."""
    import click

    from corr.cli import command

    def walk(cmd: click.Command, path: tuple[str, ...]) -> Node:
        node = Node(path, (cmd.short_help or cmd.help or "").split("\n")[0].strip())
        flags: list[str] = []
        for param in cmd.params:
            if isinstance(param, click.Option):
                names = [n for n in (*param.opts, *param.secondary_opts) if n.startswith("-")]
                if param.is_flag or param.count:
                    flags += names
                else:
                    choices = tuple(param.type.choices) if isinstance(param.type, click.Choice) else ()
                    for name in names:
                        node.options[name] = tuple(str(c) for c in choices) or VALUES.get(name, ())
            elif isinstance(param, click.Argument) and param.name == "game" and not node.games:
                node.games = True
        node.flags = tuple(flags)
        if isinstance(cmd, click.Group):
            for name in sorted(cmd.commands):
                node.children[name] = walk(cmd.commands[name], (*path, name))
        return node

    return walk(command([]), ())


def _games() -> list[str]:
    from corr.games import names

    return list(names())


def _nodes(node: Node) -> list[Node]:
    out = [node]
    for child in node.children.values():
        out += _nodes(child)
    return out


def bash(root: Node) -> str:
    """A bash function: command words first, then options, the values an option names,
    game names where a command takes one, and file names."""
    paths, values = [], []
    for node in _nodes(root):
        key = shlex.quote(" ".join(node.path))
        paths.append(f"    {key}) kids={shlex.quote(' '.join(node.children))}; "
                     f"opts={shlex.quote(' '.join([*node.options, *node.flags, '--help']))}; "
                     f"valued={shlex.quote(' '.join(node.options))}; "
                     f"games={shlex.quote(' '.join(_games()) if node.games else '')};;")
        for name, taken in node.options.items():
            if taken:
                values.append(f"    {shlex.quote(' '.join(node.path) + '|' + name)}) "
                              f"COMPREPLY=($(compgen -W {shlex.quote(' '.join(taken))} -- \"$cur\")); return;;")
    lines = [
        "# bash completion for corr (static: `corr completion bash` wrote it; it never runs corr)",
        "_corr() {",
        '    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"',
        '    local path="" kids opts valued games i w',
        "    _corr_at() {",
        '        case "$1" in',
        *paths,
        "        esac",
        "    }",
        '    _corr_at ""',
        "    for ((i = 1; i < COMP_CWORD; i++)); do",
        '        w="${COMP_WORDS[i]}"',
        '        if [[ " $kids " == *" $w "* ]]; then path="${path:+$path }$w"; _corr_at "$path"; fi',
        "    done",
        '    case "$path|$prev" in',
        *values,
        "    esac",
        '    if [[ -n "$prev" && " $valued " == *" $prev "* ]]; then COMPREPLY=($(compgen -f -- "$cur")); return; fi',
        '    if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return; fi',
        '    if [[ -n "$kids" ]]; then COMPREPLY=($(compgen -W "$kids" -- "$cur")); return; fi',
        '    COMPREPLY=($(compgen -W "$games" -- "$cur") $(compgen -f -- "$cur"))',
        "}",
        "complete -o filenames -F _corr corr",
    ]
    return "\n".join(lines) + "\n"


def zsh(root: Node) -> str:
    """zsh runs the bash function through its bashcompinit."""
    return ("#compdef corr\n# zsh completion for corr (static: `corr completion zsh` wrote it)\n"
            "autoload -U +X bashcompinit && bashcompinit\n" + bash(root).split("\n", 1)[1])


def fish(root: Node) -> str:
    """One `complete` line per command word and per option, under the words before it."""

    def quoted(text: str) -> str:
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"

    lines = ["# fish completion for corr (static: `corr completion fish` wrote it)"]
    for node in _nodes(root):
        if node.path:
            condition = " && ".join(f"__fish_seen_subcommand_from {w}" for w in node.path)
        else:
            condition = "__fish_use_subcommand"
        for name, child in node.children.items():
            after = condition if node.path else "__fish_use_subcommand"
            none_yet = " && not __fish_seen_subcommand_from " + " ".join(node.children)
            lines.append(f"complete -c corr -f -n {quoted(after + (none_yet if node.path else ''))} "
                         f"-a {quoted(name)} -d {quoted(child.help[:60])}")
        if not node.path:
            continue
        for name, values in node.options.items():
            flag = f"-l {name[2:]}" if name.startswith("--") else f"-s {name[1:]}"
            what = f"-x -a {quoted(' '.join(values))}" if values else "-r -F"
            lines.append(f"complete -c corr -n {quoted(condition)} {flag} {what}")
        for name in node.flags:
            flag = f"-l {name[2:]}" if name.startswith("--") else f"-s {name[1:]}"
            lines.append(f"complete -c corr -n {quoted(condition)} {flag}")
        if node.games:
            lines.append(f"complete -c corr -n {quoted(condition)} -a {quoted(' '.join(_games()))}")
    return "\n".join(lines) + "\n"


@app.command()
def completion(
    shell: Annotated[str, typer.Argument(metavar="SHELL", help="bash, zsh or fish.", show_default=False)],
) -> None:
    """Print a completion script for your shell: commands, options, their values and
    file names complete on TAB. It is static (it never runs corr), so write it once:

    \b
    Example:
      corr completion bash > ~/.local/share/bash-completion/completions/corr
      corr completion zsh > "${fpath[1]}/_corr"
      corr completion fish > ~/.config/fish/completions/corr.fish
    """
    from corr.errors import UsageError

    if shell not in SHELLS:
        raise UsageError(f"unknown shell {shell!r} (shells: {', '.join(SHELLS)})")
    make: dict[str, Any] = {"bash": bash, "zsh": zsh, "fish": fish}
    typer.echo(make[shell](tree()), nl=False)
