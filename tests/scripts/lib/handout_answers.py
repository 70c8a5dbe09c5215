"""Whether a question's answer stands in the student's copy: the answers of a lab's instructor
guide (the items "N. " under its heading with "Answers") compared with the lab's handout and
student files. It stays with the course (mk/dist.sh leaves it out of the student tarball, which
has no guides); the handout's reading is handouts.py's. Run from the repository root as
    python3 tests/scripts/lib/handout_answers.py LAB
for tests/scripts/handout-answers.sh: each problem a line, exit 1 if any.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from handouts import HEADING, handout_of_lab, lines_outside_fences, manifest_value, read  # noqa: E402


# --- answers that stand in the student's copy ------------------------------------------------------

# An answer of the instructor guide (handouts/instructor/labN.md, its "Answers" section, items
# "N. " by question number) that shares a long run of words with what the student gets (the
# handout and the lab's student files) stands in the student's copy. Left out of the comparison:
# the question's own text in the handout, which an answer may restate; what the answer puts in
# double quotes, which says that it quotes (a driver's message); the titles of section and
# question references, which every file repeats. A run counts its words that hold a letter, so
# that the numbers of a table an answer cites are not counted as words. Tuned on the handouts of
# issue 40: from 8 such words, the runs are sentences that explain what a question asks (the
# copies the issue names, lab 3's question 4, lab 6's question 3, lab 7's question 2, lab 2's
# question 5, and others of the kind); below 8 they become phrases any two texts on the subject
# share ("every thread of the block", "is not a multiple of").
ANSWER_RUN = 8
WORD = re.compile(r"[a-z0-9]+(?:['.,][a-z0-9]+)*")
TITLED_REFERENCE = re.compile(r'((?:\b[Ss]ections?|§|\b[Qq]uestions?)\s*\d+(?:\.\d+)*)\s*\((?:[^()]|\([^()]*\))*\)')


QUOTED = re.compile(r'"[^"]*"|“[^”]*”')


def comparable_words(text, quotes=True, first_line=1):
    """TEXT's words, lower case, and the line each stands on (counted from FIRST_LINE), with
    what every file repeats taken out: the titles of section and question references ("section
    12 (Results)" is "section 12"). Without QUOTES, what stands in double quotes goes too: an
    answer that quotes the student's copy, a driver's message say, says that it quotes."""
    def keep_lines(replacement):
        return lambda m: (m.expand(replacement) if replacement else ' | ') + '\n' * m.group(0).count('\n')
    text = TITLED_REFERENCE.sub(keep_lines(r'\1'), text)
    if not quotes:
        text = QUOTED.sub(keep_lines(''), text)
    words, lines = [], []
    for number, line in enumerate(text.lower().replace('’', "'").split('\n'), first_line):
        found = WORD.findall(line)
        words += found
        lines += [number] * len(found)
    return words, lines


def numbered_items(text, heading_word):
    """{number: (first line index, last line index + 1)} of the items "N. " in the first column
    under the first heading that holds HEADING_WORD, each up to the next item or heading."""
    lines = text.split('\n')
    out, inside, level, current = {}, False, 0, None
    for i, (_, line, fenced) in enumerate(lines_outside_fences(text)):
        if not fenced:
            m = HEADING.match(line)
            if m:
                if inside and len(m.group(1)) <= level:
                    break
                if not inside and heading_word in m.group(2):
                    inside, level = True, len(m.group(1))
                continue
        if not inside:
            continue
        item = None if fenced else re.match(r'^(\d+)\.\s', line)
        if item:
            current = int(item.group(1))
            out[current] = [i, i + 1]
        elif current is not None and (line.strip() == '' or line.startswith((' ', '\t')) or fenced):
            out[current][1] = i + 1
        elif current is not None:
            current = None
    return {n: (a, b) for n, (a, b) in out.items()}


def shared_runs(answer, copy, least=None):
    """The runs of ANSWER's words that COPY (a list of words) holds in the same order, each as
    long as it goes, that hold at least LEAST words with a letter: [(run, where in COPY)]."""
    least = least or ANSWER_RUN
    seed = 4
    starts = {}
    for i in range(len(copy) - seed + 1):
        starts.setdefault(tuple(copy[i:i + seed]), []).append(i)
    runs, i = [], 0
    while i <= len(answer) - seed:
        best, at = 0, 0
        for j in starts.get(tuple(answer[i:i + seed]), ()):
            n = seed
            while i + n < len(answer) and j + n < len(copy) and answer[i + n] == copy[j + n]:
                n += 1
            if n > best:
                best, at = n, j
        if best:
            run = answer[i:i + best]
            if sum(1 for w in run if re.search('[a-z]', w)) >= least:
                runs.append((' '.join(run), at))
            i += best
        else:
            i += 1
    return runs


def check_answers(root, lab, guide, handout, student_files):
    """The problems: each question whose answer in GUIDE shares a run of ANSWER_RUN words with
    the student's copy, named by the lab, the question, the words and where they stand."""
    problems = []
    handout_text = read(handout)
    handout_lines = handout_text.split('\n')
    guide_lines = read(guide).split('\n')
    questions = numbered_items(handout_text, 'Questions')
    answers = numbered_items('\n'.join(guide_lines), 'Answers')
    if not answers:
        return [f'{os.path.relpath(guide, root)}: no "Answers" section with numbered items']
    files = [(os.path.relpath(f, root), comparable_words(read(f))) for f in student_files]
    for number, (first, last) in sorted(answers.items()):
        answer, _ = comparable_words('\n'.join(guide_lines[first:last]), quotes=False)
        own = questions.get(number, (0, 0))
        # The handout without the question itself, in two pieces so that no run joins across it.
        name = os.path.relpath(handout, root)
        copies = [(name, comparable_words('\n'.join(handout_lines[:own[0]]))),
                  (name, comparable_words('\n'.join(handout_lines[own[1]:]), first_line=own[1] + 1))] + files
        for where, (copy, lines) in copies:
            for run, at in shared_runs(answer, copy):
                problems.append(f'{where}:{lines[at]}: {lab}, question {number}: the answer of '
                                f'{os.path.relpath(guide, root)}:{first + 1} stands here: "{run}"')
    return problems


def main(argv):
    if len(argv) != 2:
        print('usage: handout_answers.py LAB', file=sys.stderr)
        return 2
    root, lab = os.getcwd(), argv[1]
    handout = handout_of_lab(root, lab)
    files = [os.path.join(root, 'labs', lab, f) for f in manifest_value(root, lab, 'student_files').split()]
    problems = check_answers(root, lab, os.path.join(root, 'handouts', 'instructor', lab + '.md'), handout, files)
    for p in problems:
        print('FAIL  ' + p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
