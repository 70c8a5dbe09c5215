"""Runs the commands a copy of the course shows in its README and handouts, as make would, and
says of each whether it passed, was refused, or needs a GPU to say more.

    python3 tests/scripts/lib/run_handout_commands.py COPY BUILD TOOLS [CACHE]

COPY: the folder of the copy (the course, or the unpacked student tarball); BUILD: the build
folder whose binaries the copy uses (make BUILD=...); TOOLS: a folder put first on PATH (the
stand-ins for ncu and compute-sanitizer). The commands are those handouts.py finds. make says
what each goal runs: `make -n -k --trace` once for every set of make variables the commands use
(ARGS aside, a placeholder), each goal alone where that fails. Prints one line per command,
"ok", "gpu" (accepted; needs a GPU to say more), "exists" (not run here), "pattern" (a
placeholder, not a command), "checkfail" (it ran, and a part of the starter failed its check:
lab 0's does on purpose) or "FAIL", and exits 1 when one failed. The environment says
whether the GPU is hidden (tests/scripts/handout-commands.sh).

A command shown twice is run once, and the lab drivers' command lines (independent of one
another) several at a time. CACHE, a JSON file, carries the outcome of every command line from
one copy to the next: the student copy differs from the course by the files it leaves out, the
hidden cases of its manifests (which no command shown uses) and the instructor-only blocks of its
Markdown, so a line that make resolves to the same text, with every file it names present, has
the same outcome there (BUILD is shared) and is not run again. What make refuses in one copy and
not the other shows in the make -n trace, which is the copy's own.
"""
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import handouts  # noqa: E402

NOT_RUN = {'test': 'it is what runs this test', 'deps': 'it installs packages with apt',
           'clean': 'it deletes the build', 'dist': 'tests/scripts/dist-contents.sh runs it',
           'grader': 'it only compiles',
           'grading-gpu-test': 'it grades every planted bug on a GPU; make test runs its quick class'}
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


# make labN-check grades the lab's public cases as the grader does: about a minute a lab on a
# GPU, and without one a build of the lab's driver and the static checks, which took most of this
# test's 640 s on CI's two cores. Other tests run it: selfcheck-tarball.sh in the student tarball
# on a GPU, for every lab; grading-selfcheck.sh without a GPU.
CHECK_RUN_ELSEWHERE = 'tests/scripts/selfcheck-tarball.sh runs it in the tarball on a GPU'


def not_run(goal):
    return goal in NOT_RUN or goal.endswith('-build') or goal.endswith('-check')


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


def paths_exist(copy, line):
    """Every word of LINE that names a file of the course (it holds a /, and is not an output
    under results/ or a shell expansion) exists in COPY."""
    try:
        words = shlex.split(line)
    except ValueError:
        return False
    for word in words:
        if '/' in word and not word.startswith(('/', '-', 'results/')) and '$' not in word:
            if not os.path.exists(os.path.join(copy, word)):
                return False
    return True


def main(copy, build, tools, cache_path=None):
    docs = ['README.md'] + sorted('handouts/' + f for f in os.listdir(os.path.join(copy, 'handouts'))
                                  if f.endswith('.md'))
    shown = []  # (document, command as shown, argv)
    for doc in docs:
        for line, parts in handouts.commands(handouts.read(os.path.join(copy, doc))):
            for argv in parts or [None]:
                shown.append((doc, line, argv))
    # make's recipes for every goal, by the variables of the command (a goal that is not run
    # needs only those that decide whether it exists: IMPL). Each make -n costs seconds: one for
    # each set of variables.
    wanted = {}
    for _, _, argv in shown:
        if argv and argv[0] == 'make':
            args, variables, goals = split_make(argv)
            if PLACEHOLDER.search(' '.join(goals) + ' ' + args + ' ' + ' '.join(variables)):
                continue
            for goal in goals:
                vs = tuple(v for v in variables if v.startswith('IMPL=')) if not_run(goal) else variables
                wanted.setdefault(vs, set()).add(goal)
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
    counts = {'ok': 0, 'gpu': 0, 'checkfail': 0, 'exists': 0, 'pattern': 0, 'FAIL': 0}
    cache = {}
    if cache_path and os.path.exists(cache_path):
        cache = json.load(open(cache_path))

    def say(kind, text):
        counts[kind] += 1
        print(f'{kind:10}{text}')

    # What each command comes to: a verdict now, or the command lines make would run.
    plan = []  # (label, verdict or None, [lines])
    for doc, line, argv in shown:
        label = f'{doc}: {line}'
        if argv is None:
            plan.append((label, ('FAIL', 'cannot be read as a shell command'), []))
            continue
        if argv[0] == 'touch':
            ok = all(os.path.isfile(os.path.join(copy, f)) for f in argv[1:])
            plan.append((label, ('ok', f'touch {" ".join(argv[1:])}') if ok else ('FAIL', 'no such file'), []))
            continue
        if argv[0] != 'make':
            continue
        args, variables, goals = split_make(argv)
        if PLACEHOLDER.search(' '.join(goals) + ' ' + args + ' ' + ' '.join(variables)):
            plan.append((label, ('pattern', '(a placeholder, not a command)'), []))
            continue
        for goal in goals or ['help']:
            key = (tuple(v for v in variables if v.startswith('IMPL=')) if not_run(goal) else variables, goal)
            if key in refusals:
                plan.append((label, ('FAIL', f'make refuses {goal}: {refusals[key]}'), []))
            elif not_run(goal):
                why = NOT_RUN.get(goal, CHECK_RUN_ELSEWHERE if goal.endswith('-check') else 'it only compiles')
                plan.append((label, ('exists', f'make {goal} exists; not run here ({why})'), []))
            elif not recipes.get(key):
                plan.append((label, ('FAIL', f'make {goal} runs nothing'), []))
            else:
                plan.append((label, None, [r.replace('@ARGS@', args) for r in recipes[key]]))

    # Run every distinct line once (or take its outcome from the copy before): the drivers
    # several at a time, the scripts one after another in the order shown (a sweep's mkdir
    # before the sweep; plots and report of one lab write the same folder).
    ran = {}
    for _, verdict, lines in plan:
        for line in lines:
            if line not in ran and line in cache and paths_exist(copy, line):
                ran[line] = tuple(cache[line])

    def execute(line):
        run = subprocess.run(['bash', '-c', line], cwd=copy, env=env, capture_output=True, text=True, timeout=900)
        return run.returncode, run.stdout + run.stderr

    pending = list(dict.fromkeys(line for _, _, lines in plan for line in lines if line not in ran))
    drivers = [line for line in pending if line.startswith(build + '/bin/')]
    # The scripts by lab (the lab's name is a word of the line: mk/plot.sh lab3 ...), one lab's
    # after another's in order, the labs side by side.
    by_lab = {}
    for line in pending:
        if line not in drivers:
            lab = re.search(r'\blab\d+\b', line)
            by_lab.setdefault(lab.group(0) if lab else '', []).append(line)

    def execute_in_order(lines):
        return [(line, execute(line)) for line in lines]

    with concurrent.futures.ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        for line, outcome in zip(drivers, pool.map(execute, drivers)):
            ran[line] = outcome
        for done in pool.map(execute_in_order, by_lab.values()):
            ran.update(done)
    cache.update(ran)

    for label, verdict, lines in plan:
        if verdict is not None:
            say(verdict[0], f'{label}: {verdict[1]}')
            continue
        output, code = '', 0
        for line in lines:
            code, text = ran[line]
            output += text
            if code != 0:
                break
        if code == 0:
            say('ok', label)
        elif code == 3 and re.search(r'no CUDA device|needs an NVIDIA GPU|no usable', output, re.I):
            say('gpu', f'{label}: its options were accepted; it needs a GPU to run')
        elif code == 1 and re.search(r'\bFAIL\b', output):
            # A driver's exit 1 (exit_codes.hpp, wrong_result): the command ran, and a part of the
            # copy's student file failed its check. The copies hold the starters, and lab 0's
            # starter fails on purpose (its handout shows that failing check).
            say('checkfail', f'{label}: it ran; a part of the starter failed its check')
        else:
            first = [l for l in output.split('\n') if re.search(r'error|refus|usage|not found', l, re.I)]
            say('FAIL', f'{label}: exit {code}: {(first or output.strip().split(chr(10)))[0][:200]}')
    if cache_path:
        json.dump(cache, open(cache_path, 'w'))
    print(f"{len(ran)} distinct command lines, {len(pending)} of them run here; "
          f"{counts['ok']} ran and passed, {counts['checkfail']} ran with a starter's failing check, "
          f"{counts['gpu']} accepted and need a GPU to run, "
          f"{counts['exists']} not run here, {counts['pattern']} patterns, {counts['FAIL']} failed")
    return 1 if counts['FAIL'] else 0


if __name__ == '__main__':
    if len(sys.argv) not in (4, 5):
        print(__doc__)
        sys.exit(2)
    sys.exit(main(os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3]),
                  sys.argv[4] if len(sys.argv) == 5 else None))
