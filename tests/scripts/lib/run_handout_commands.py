"""Runs the commands a copy of the course shows in its README and handouts, as make would, and
says of each whether it passed, was refused, or needs a GPU to say more.

    python3 tests/scripts/lib/run_handout_commands.py COPY BUILD TOOLS

COPY: the folder of the copy (the course, or the unpacked student tarball); BUILD: the build
folder whose binaries the copy uses (make BUILD=...); TOOLS: a folder put first on PATH (the
stand-ins for ncu and compute-sanitizer). The commands are those handouts.py finds. make says
what each goal runs: `make -n -k --trace` once for every set of make variables the commands use
(ARGS aside, a placeholder), each goal alone where that fails. Prints one line per command,
"ok", "gpu" (accepted; needs a GPU to say more), "exists" (not run here), "pattern" (a
placeholder, not a command) or "FAIL", and exits 1 when one failed. The environment says
whether the GPU is hidden (tests/scripts/handout-commands.sh).
"""
import os
import re
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import handouts  # noqa: E402

NOT_RUN = {'test': 'it is what runs this test', 'deps': 'it installs packages with apt',
           'clean': 'it deletes the build', 'dist': 'tests/scripts/dist-contents.sh runs it',
           'grader': 'it only compiles'}
PLACEHOLDER = re.compile(r'labN|<[a-z]|\.\.\.|(^|\s)[A-Z][A-Z_]+(\s|$)')
TRACE = re.compile(r"^\S+:\d+: (?:update )?target '([^']+)'")


def split_make(argv):
    args, variables, goals = None, [], []
    for a in argv[1:]:
        if a.startswith('ARGS='):
            args = a[len('ARGS='):]
        elif a.startswith('-'):
            continue
        elif '=' in a:
            variables.append(a)
        else:
            goals.append(a)
    return args or '', tuple(sorted(variables)), goals


def trace(copy, build, variables, goals):
    """{goal: [recipe lines]} of the goals make traced, and make's exit status and output."""
    run = subprocess.run(['make', '-n', '-k', '--trace', '--no-print-directory', 'BUILD=' + build, *variables,
                          'ARGS=@ARGS@', *goals], cwd=copy, capture_output=True, text=True)
    recipes, current = {}, None
    for line in run.stdout.split('\n'):
        m = TRACE.match(line)
        if m:
            current = m.group(1) if m.group(1) in goals else None
            if current is not None:
                recipes.setdefault(current, [])
            continue
        if current is not None and line.strip() and not line.startswith('make'):
            recipes[current].append(line)
    return recipes, run.returncode, run.stdout + run.stderr


def main(copy, build, tools):
    docs = ['README.md'] + sorted('handouts/' + f for f in os.listdir(os.path.join(copy, 'handouts'))
                                  if f.endswith('.md'))
    shown = []  # (document, command as shown, argv)
    for doc in docs:
        for line, parts in handouts.commands(handouts.read(os.path.join(copy, doc))):
            for argv in parts or [None]:
                shown.append((doc, line, argv))
    # make's recipes for every goal, by the variables of the command.
    wanted = {}
    for _, _, argv in shown:
        if argv and argv[0] == 'make':
            args, variables, goals = split_make(argv)
            wanted.setdefault(variables, set()).update(g for g in goals if not PLACEHOLDER.search(g))
    recipes, refusals = {}, {}
    for variables, goals in wanted.items():
        goals = sorted(goals)
        traced, status, output = trace(copy, build, variables, goals)
        for goal in goals:
            if status == 0 or goal in traced and goal in NOT_RUN:
                recipes[(variables, goal)] = traced.get(goal, [])
                continue
            alone, alone_status, alone_output = trace(copy, build, variables, [goal])
            if alone_status == 0:
                recipes[(variables, goal)] = alone.get(goal, [])
            else:
                why = [l for l in alone_output.split('\n') if 'make: ***' in l or 'Error' in l]
                refusals[(variables, goal)] = why[0] if why else alone_output.strip().split('\n')[-1]
    env = dict(os.environ, PATH=tools + os.pathsep + os.environ['PATH'])
    counts = {'ok': 0, 'gpu': 0, 'exists': 0, 'pattern': 0, 'FAIL': 0}

    def say(kind, text):
        counts[kind] += 1
        print(f'{kind:6}{text}')

    for doc, line, argv in shown:
        label = f'{doc}: {line}'
        if argv is None:
            say('FAIL', f'{label}: cannot be read as a shell command')
            continue
        if argv[0] == 'touch':
            ok = all(os.path.isfile(os.path.join(copy, f)) for f in argv[1:])
            say('ok' if ok else 'FAIL', f'{label}: touch {" ".join(argv[1:])}' + ('' if ok else ': no such file'))
            continue
        if argv[0] != 'make':
            continue
        args, variables, goals = split_make(argv)
        if PLACEHOLDER.search(' '.join(goals) + ' ' + args):
            say('pattern', f'{label} (a placeholder, not a command)')
            continue
        for goal in goals or ['help']:
            key = (variables, goal)
            if key in refusals:
                say('FAIL', f'{label}: make refuses {goal}: {refusals[key]}')
                continue
            if goal in NOT_RUN or goal.endswith('-build'):
                say('exists', f'{label}: make {goal} exists; not run here ({NOT_RUN.get(goal, "it only compiles")})')
                continue
            lines = recipes.get(key, [])
            if not lines:
                say('FAIL', f'{label}: make {goal} runs nothing')
                continue
            output, code = '', 0
            for recipe in lines:
                run = subprocess.run(['bash', '-c', recipe.replace('@ARGS@', args)], cwd=copy, env=env,
                                     capture_output=True, text=True, timeout=900)
                output += run.stdout + run.stderr
                code = run.returncode
                if code != 0:
                    break
            if code == 0:
                say('ok', label)
            elif code == 3 and re.search(r'no CUDA device|needs an NVIDIA GPU|no usable', output, re.I):
                say('gpu', f'{label}: its options were accepted; it needs a GPU to run')
            else:
                first = [l for l in output.split('\n') if re.search(r'error|refus|usage|not found', l, re.I)]
                say('FAIL', f'{label}: exit {code}: {(first or output.strip().split(chr(10)))[0][:200]}')
    print(f"{counts['ok']} ran and passed, {counts['gpu']} accepted and need a GPU to run, "
          f"{counts['exists']} not run here, {counts['pattern']} patterns, {counts['FAIL']} failed")
    return 1 if counts['FAIL'] else 0


if __name__ == '__main__':
    if len(sys.argv) != 4:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])))
