"""What the handouts say, read the way their tests need it: headings, the numbered sections and
questions, the references between them, the TODOs they name, the commands they show, the
and the rubric block of their grading sections.

One reader for the tests of tests/scripts/ that check handouts (handout-references.sh,
handout-commands.sh, handout-rubric.sh, dist-contents.sh, lab6-pass-table.sh; and
handout_answers.py beside it, for handout-answers.sh) and for make handouts-rubric; run it as
    python3 tests/scripts/lib/handouts.py COMMAND ...
from the repository root (COMMAND: references, source-reports, pass-table, commands, rubric;
see main()). It never reads a manifest: the grader and mk/manifest.sh do.

The format it reads (what the handouts are written to, as mk/report.sh reads their questions):
- a heading is a line that starts with '#', outside fenced code blocks; a numbered one reads
  "## 3. Background" (a section) or "### 3.1 Floyd-Warshall" (a subsection);
- the questions are the items "N. " in the first column under the heading with "Questions";
- a reference is "section 3.4 (Tiling)", "sections 3.3 (Odd-even merge sort) and 3.4 (Tiles)",
  "§10.3 (...)", "question 4 (The two barriers)", "questions 2 (...) and 3 (...)": each number
  with its heading's or question's title, or the title's first words, in parentheses; "lab 1's
  section 9 (Correctness)" points into lab 1's handout; one with the name of another document
  just before it (Higham, Knuth, a specification, a guide, a chapter) is that document's, and
  not checked.
"""
import math
import os
import re
import shlex
import subprocess
import sys

FENCE = re.compile(r'^\s*(```|~~~)')


def read(path):
    with open(path, encoding='utf-8') as f:
        return f.read()


def lines_outside_fences(text):
    """(line number, line, fenced) for every line; fenced lines are inside a ``` block."""
    fenced = False
    for number, line in enumerate(text.split('\n'), 1):
        if FENCE.match(line):
            yield number, line, True
            fenced = not fenced
            continue
        yield number, line, fenced


HEADING = re.compile(r'^(#+)\s+(.*?)\s*$')
NUMBERED = re.compile(r'^(\d+(?:\.\d+)*)\.?\s')


def headings(text):
    """[(line, level, number or None, title)] of the headings outside code blocks."""
    out = []
    for number, line, fenced in lines_outside_fences(text):
        if fenced:
            continue
        m = HEADING.match(line)
        if not m:
            continue
        title = m.group(2)
        n = NUMBERED.match(title)
        out.append((number, len(m.group(1)), n.group(1) if n else None, title))
    return out


def questions(text):
    """The numbers of the items of the "Questions" section, in order."""
    out, inside, level = [], False, 0
    for _, line, fenced in lines_outside_fences(text):
        if not fenced:
            m = HEADING.match(line)
            if m:
                if inside and len(m.group(1)) <= level:
                    break
                if not inside and 'Questions' in m.group(2):
                    inside, level = True, len(m.group(1))
                continue
        if inside and not fenced:
            q = re.match(r'^(\d+)\.\s', line)
            if q:
                out.append(int(q.group(1)))
    return out


def lab_of_handout(path):
    m = re.search(r'(lab\d+)', os.path.basename(path))
    return m.group(1) if m else None


def handout_of_lab(root, lab):
    folder = os.path.join(root, 'handouts')
    for name in sorted(os.listdir(folder)):
        if name.startswith(lab + '-') and name.endswith('.md'):
            return os.path.join(folder, name)
    return None


EXTERNAL = re.compile(r'Higham|Knuth|[Ss]pecification|Guide|[Cc]hapter|\bbook\b|Cheng|Kirk|Harris|Lang\b|'
                      r'Batcher|paper|[Mm]anual|documentation|CUDA C\+\+|Math API', re.S)
# A reference names each number with its heading's or question's title, or the title's first
# words, in parentheses: "section 12 (Results)", "sections 3.3 (Odd-even merge sort) and 3.4
# (Tiles)", "question 7 (Speedups then and now)". A title may hold one level of parentheses.
REF_ITEM = r'(\d+(?:\.\d+)*)(?:\s*\(((?:[^()]|\([^()]*\))*)\))?'
REF_SEPARATOR = r'(?:\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*[–-]\s*|\s+to\s+)'
SECTION_REF = re.compile(r'(?:\b[Ss]ections?|§)\s*(' + REF_ITEM + '(?:' + REF_SEPARATOR + REF_ITEM + ')*)')
QUESTION_REF = re.compile(r'\b[Qq]uestions?\s+(' + REF_ITEM + '(?:' + REF_SEPARATOR + REF_ITEM + ')*)')
LAB_BEFORE = re.compile(r"\b[Ll]ab\s*(\d+)(?:'s|,)?\s*(?:handout,?\s*)?$")


def reference_items(listing):
    """[(number, title or None)] of a reference's list, "3.3 (Odd-even) and 3.4 (Tiles)"."""
    return [(m.group(1), m.group(2)) for m in re.finditer(REF_ITEM, listing)]


def plain_words(text):
    """TEXT as the comparison of a reference's title reads it: no Markdown emphasis or code
    marks, one blank between words, lower case, the typographic quotes made plain."""
    text = re.sub(r'[*_`]', '', text).replace('’', "'").replace('“', '"').replace('”', '"')
    return ' '.join(text.split()).lower()


def title_matches(words, title):
    """Whether WORDS are TITLE or its first words (a whole word at the end, not part of one). A
    title that opens with a sentence in parentheses, "(The report's Nsight table.) On its GTX
    1060 ...", may be named by that sentence or by what follows it."""
    words = plain_words(words).rstrip('.')
    title = plain_words(title)
    for candidate in {title, title.lstrip('('), re.sub(r'^\([^()]*\)\s*', '', title)}:
        if words and candidate.startswith(words) and (len(candidate) == len(words) or not candidate[len(words)].isalnum()):
            return True
    return False


def joined_paragraphs(text):
    """(first line number, text) of each paragraph or list item outside code blocks, its lines
    joined, so that a reference broken over two lines is read whole."""
    out, start, buf = [], None, []
    for number, line, fenced in lines_outside_fences(text):
        if fenced or not line.strip() or HEADING.match(line):
            if buf:
                out.append((start, ' '.join(buf)))
            start, buf = None, []
            if not fenced and HEADING.match(line):
                out.append((number, line))
            continue
        if buf and re.match(r'^\s*(?:[-*]|\d+\.)\s', line):
            out.append((start, ' '.join(buf)))
            start, buf = None, []
        if start is None:
            start = number
        buf.append(line.strip())
    if buf:
        out.append((start, ' '.join(buf)))
    return out


def question_titles(text):
    """{number: title} of the questions: the bold title an item starts with, else the item's
    whole text."""
    out, inside, level, current = {}, False, 0, None
    for _, line, fenced in lines_outside_fences(text):
        if not fenced:
            m = HEADING.match(line)
            if m:
                if inside and len(m.group(1)) <= level:
                    break
                if not inside and 'Questions' in m.group(2):
                    inside, level = True, len(m.group(1))
                continue
        if not inside or fenced:
            continue
        q = re.match(r'^(\d+)\.\s+(.*)', line)
        if q:
            current = int(q.group(1))
            out[current] = q.group(2)
        elif current is not None and line.strip():
            out[current] += ' ' + line.strip()
        elif current is not None:
            current = None
    for number, item in out.items():
        bold = re.match(r'\*\*([^*]+)\*\*', item)
        out[number] = bold.group(1).rstrip('.:') if bold else item
    return out


def prose_of(path, text):
    """TEXT as its references are read: in a source file, the comment leaders (//, #, *) at the
    start of each line go, so a reference broken over two comment lines reads whole."""
    if path.endswith('.md'):
        return text
    return '\n'.join(re.sub(r'^\s*(?://+|#+|\*+(?!/))\s?', '', line) for line in text.split('\n'))


def check_references(root, files):
    """Every section and question reference in FILES names a heading or a question of the
    handout it points into, by its number and, in parentheses, its title or the title's first
    words, so that a section added or moved shows as the references it displaced. Returns the
    problems, and the number of references read."""
    problems, count = [], 0
    cache = {}

    def targets(lab):
        if lab not in cache:
            path = handout_of_lab(root, lab)
            if path is None:
                cache[lab] = None
            else:
                text = read(path)
                sections = {h[2]: h[3][len(h[2]):].lstrip('. ') for h in headings(text) if h[2]}
                cache[lab] = (path, sections, question_titles(text))
        return cache[lab]

    for path in files:
        rel = os.path.relpath(path, root)
        text = prose_of(path, read(path))
        own = None
        m = re.match(r'labs/(lab\d+)/', rel)
        if m:
            own = m.group(1)
        elif rel.startswith('handouts/'):
            own = lab_of_handout(path)
        for start, para in joined_paragraphs(text):
            for kind, pattern in (('section', SECTION_REF), ('question', QUESTION_REF)):
                for ref in pattern.finditer(para):
                    before = para[max(0, ref.start() - 90):ref.start()]
                    # The sentence before the reference: another document named there owns it.
                    sentence = re.split(r'(?<=[.;:!?])\s+(?=[A-Z(])', before)[-1]
                    if EXTERNAL.search(sentence):
                        continue
                    lab = own
                    named = LAB_BEFORE.search(before)
                    if named:
                        lab = 'lab' + named.group(1)
                    said = ref.group(0)
                    if lab is None:
                        problems.append(f'{rel}:{start}: "{said}" names no lab (write "lab N\'s {kind} ...")')
                        continue
                    if targets(lab) is None:
                        problems.append(f'{rel}:{start}: "{said}": {lab} has no handout')
                        continue
                    handout, sections, qs = targets(lab)
                    where = os.path.relpath(handout, root)
                    for n, words in reference_items(ref.group(1)):
                        count += 1
                        if kind == 'section':
                            title = sections.get(n)
                        else:
                            title = qs.get(int(n)) if '.' not in n else None
                        if title is None:
                            problems.append(f'{rel}:{start}: "{said}": {where} has no {kind} {n}')
                        elif words is None:
                            problems.append(f'{rel}:{start}: "{said}": {kind} {n} lacks its title: write '
                                            f'"{kind} {n} ({short_title(title)})"')
                        elif not title_matches(words, title):
                            problems.append(f'{rel}:{start}: "{said}": {kind} {n} of {where} is "{title[:70]}", '
                                            f'not "{words}": renumbered? Correct the number or the words')
    return problems, count


def short_title(title):
    """The words a reference would name a title by: up to its first colon, comma or parenthesis,
    or its first six words."""
    title = re.sub(r'^\([^()]*\)\s*', '', title)
    head = re.split(r'\s*[:,;(?]\s*|\.\s', title)[0].strip() or title
    return ' '.join(head.split()[:6])


def check_numbering(root, handouts):
    """The numbered headings of each handout count 1, 2, 3 ... at the top level and 1, 2 ...
    under each section, and its questions 1, 2, 3 ...: a merge that numbers two sections alike,
    or a section moved without renumbering, shows here."""
    problems = []
    for path in handouts:
        rel = os.path.relpath(path, root)
        text = read(path)
        top, sub = 0, {}
        for line, level, number, title in headings(text):
            if number is None:
                continue
            parts = [int(p) for p in number.split('.')]
            if len(parts) == 1:
                top += 1
                if parts[0] != top:
                    problems.append(f'{rel}:{line}: section "{title}" should be number {top}')
                    top = parts[0]
            elif len(parts) == 2:
                if parts[0] != top:
                    problems.append(f'{rel}:{line}: subsection "{title}" lies in section {top}')
                sub[parts[0]] = sub.get(parts[0], 0) + 1
                if parts[1] != sub[parts[0]]:
                    problems.append(f'{rel}:{line}: subsection "{title}" should be {parts[0]}.{sub[parts[0]]}')
                    sub[parts[0]] = parts[1]
        qs = questions(text)
        if qs != list(range(1, len(qs) + 1)):
            problems.append(f'{rel}: its questions are numbered {qs}, not 1 to {len(qs)}')
    return problems


def manifest_value(root, lab, key):
    """KEY of labs/LAB/manifest, as the shell reader of manifests (mk/manifest.sh) gives it."""
    done = subprocess.run(['bash', '-c', 'source mk/manifest.sh && manifest_get "$1" "$2"', 'manifest', lab, key],
                          cwd=root, capture_output=True, text=True, check=True)
    return done.stdout.strip()


TODO_REF = re.compile(r'\bTODOs?\s+(\d+[a-z]?)(?:\s*[–-]\s*(\d+[a-z]?))?')


def check_todos(root, handouts):
    """Every "TODO 2a" (or "TODO 1a–1d") a handout names is a TODO of its lab's student file."""
    problems = []
    for path in handouts:
        lab = lab_of_handout(path)
        files = manifest_value(root, lab, 'student_files').split()
        sources = ' '.join(read(os.path.join(root, 'labs', lab, f)) for f in files)
        have = set(re.findall(r'\bTODO\s+(\d+[a-z]?)\b', sources))
        have |= {re.match(r'\d+', t).group(0) for t in have}
        for start, para in joined_paragraphs(read(path)):
            for ref in TODO_REF.finditer(para):
                for label in filter(None, ref.groups()):
                    if label not in have:
                        problems.append(f'{os.path.relpath(path, root)}:{start}: "{ref.group(0)}": '
                                        f'labs/{lab}/{" ".join(files)} has no TODO {label}')
    return problems


# --- the rubric blocks ---------------------------------------------------------------------------

# A handout's "How it is graded" section holds its lab's rubric between these two lines, as the
# grader prints it (`grader rubric --lab LAB`, grading/rubric_markdown.cpp): the numbers there are
# the ones the grade gives, never a copy of the manifest kept by hand.
RUBRIC_BEGIN = re.compile(r'^<!-- rubric:.*-->\s*$')
RUBRIC_END = '<!-- /rubric -->'
GRADING_HEADING = re.compile(r'^#+\s+(\d+\.\s+)?How it is graded\s*$')


def grader_rubric(grader, lab):
    """The block the grader prints for LAB, as a list of lines; exits when the grader fails."""
    done = subprocess.run([grader, 'rubric', '--lab', lab], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f'{grader} rubric --lab {lab} failed (exit {done.returncode}): {done.stderr.strip()}')
    return done.stdout.rstrip('\n').split('\n')


def rubric_block(lines):
    """(first, last) indexes of the rubric block's marker lines in LINES, or None when there is
    none; raises ValueError for a block left open or two blocks."""
    begins = [i for i, line in enumerate(lines) if RUBRIC_BEGIN.match(line)]
    if not begins:
        return None
    if len(begins) > 1:
        raise ValueError(f'two rubric blocks (lines {begins[0] + 1} and {begins[1] + 1})')
    for end in range(begins[0] + 1, len(lines)):
        if lines[end].strip() == RUBRIC_END:
            return begins[0], end
    raise ValueError(f'the rubric block of line {begins[0] + 1} has no closing line "{RUBRIC_END}"')


def check_rubric(handout, lab, wanted):
    """The problems of HANDOUT's rubric block against WANTED (the grader's lines): the first line
    that differs, named by its line number."""
    lines = read(handout).split('\n')
    try:
        block = rubric_block(lines)
    except ValueError as e:
        return [f'{handout}: {lab}: {e}']
    if block is None:
        return [f'{handout}: {lab}: its "How it is graded" section has no rubric block (the lines from '
                f'"<!-- rubric: ..." to "{RUBRIC_END}"): make handouts-rubric writes it']
    first, last = block
    have = lines[first:last + 1]
    for i in range(max(len(have), len(wanted))):
        mine = have[i] if i < len(have) else '(the block ends)'
        theirs = wanted[i] if i < len(wanted) else '(the block ends)'
        if mine != theirs:
            return [f'{handout}:{first + i + 1}: {lab}\'s rubric differs from what the grader prints '
                    f'(grader rubric --lab {lab}; make handouts-rubric rewrites it):\n'
                    f'      the handout: {mine}\n      the grader:  {theirs}']
    return []


def write_rubric(handout, wanted):
    """Replaces HANDOUT's rubric block with WANTED, in one read and one write of the file (other
    people edit the handouts' other sections meanwhile). A handout without a block gets it right
    under its "How it is graded" heading. Returns whether the file changed."""
    text = read(handout)
    lines = text.split('\n')
    block = rubric_block(lines)
    if block is None:
        headings_at = [i for i, line in enumerate(lines) if GRADING_HEADING.match(line)]
        if not headings_at:
            raise ValueError(f'{handout} has no "How it is graded" heading to put the rubric under')
        at = headings_at[0] + 1
        lines[at:at] = [''] + wanted
    else:
        lines[block[0]:block[1] + 1] = wanted
    new = '\n'.join(lines)
    if new == text:
        return False
    with open(handout, 'w', encoding='utf-8') as f:
        f.write(new)
    return True


# --- references to the source reports ---------------------------------------------------------

# The course was written from source reports that students never see (other students' work);
# a file they receive quotes one and names it by what it is, never by the word for the random
# seed with a report's number (000 to 009), in the possessive, plural after "the", or as "the" one
# that did something. The uses of the random seed stay: --seed, "seed 1", "the seed is
# printed", "the seed of the random inputs", seed_ and .seed in code, and the runs' seeds
# ("their seeds", "the seeds of the kept runs", `seeds` in code: every run draws its own).
SOURCE_REPORT = re.compile(
    r"\bseeds?\s+0\d\d\b"                                    # a report's number
    r"|\bseeds?'s?(?=\W)"                                       # the possessive
    r"|\bthe seeds\b(?!\s+of\b)"                               # the plural, not "the seeds of the runs""
    # "the" one, but not the random seed that ends a clause ("--seed S sets the seed."); a colon
    # after the word ends no clause (lab 5 once named its textbook so, before a colon)
    r"|\bthe seed\b(?!\s+(?:is|of|gives|printed|option|value|that|it)\b)(?!\s*[,.;)])"
    r"|\bseed\s+(?:report|document|sample|code|kernel|table|experiment)s?\b",
    re.I)


def source_report_references(path):
    """[(line number, line)] of PATH's lines that name a source report as a seed. A phrase broken
    over two lines is read whole: the lines are joined, with the comment leaders (#, //, *, >)
    of the second taken out."""
    out = []
    try:
        text = read(path)
    except UnicodeDecodeError:
        return out
    lines = text.split('\n')
    joined, starts = '', []
    for line in lines:
        starts.append(len(joined))
        joined += re.sub(r'^\s*(?:#|//|\*|>)?\s*', '', line) if joined else line
        joined += ' '
    seen = set()
    for m in SOURCE_REPORT.finditer(joined):
        if joined[max(0, m.start() - 2):m.start()] == '--':
            continue
        number = max(i for i, start in enumerate(starts) if start <= m.start())
        if number not in seen:
            seen.add(number)
            out.append((number + 1, lines[number].strip()))
    return out


# --- the pass table of lab 6 ------------------------------------------------------------------

def formula_value(formula, k):
    """The value of a pass-count formula of the handout's table, e.g.
    "1 + Σ_{j=1}^{k−10} (⌈j/3⌉ + 1)", for this k; None when it is not such a formula."""
    f = formula.replace('−', '-').replace('×', '*').replace('`', '')
    m = re.match(r'^\s*(.*?)Σ_\{j=(\d+)\}\^\{([^}]*)\}\s*\((.*)\)\s*$', f)
    if not m:
        return None
    head, first, last, body = m.groups()
    body = re.sub(r'⌈([^⌉]*)⌉', r'ceil(\1)', body)
    env = {'ceil': math.ceil, 'k': k}
    total = sum(eval(body, {'__builtins__': {}}, dict(env, j=j))
                for j in range(int(first), eval(last, {'__builtins__': {}}, env) + 1))
    head = head.strip()
    if head:
        head = head.rstrip('+').strip()
        total += eval(head, {'__builtins__': {}}, env)
    return total


def pass_table(path):
    """The rows of the table of passes (its header names "passes over memory" and columns of
    L = 2^k): [(line, sort, formula, [(k, cell)])]."""
    rows, columns = [], None
    for number, line, fenced in lines_outside_fences(read(path)):
        if fenced or not line.startswith('|'):
            columns = None if not line.startswith('|') else columns
            continue
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        if columns is None:
            if len(cells) > 2 and 'passes over memory' in cells[1]:
                columns = []
                for c in cells[2:]:
                    m = re.search(r'2\^(\d+)', c)
                    columns.append(int(m.group(1)) if m else None)
            continue
        if set(''.join(cells)) <= set('-: '):
            continue
        rows.append((number, cells[0], cells[1], list(zip(columns, cells[2:]))))
    return rows


def check_pass_table(path):
    problems, checked = [], 0
    rows = pass_table(path)
    if not rows:
        return [f'{path}: no table whose second column is "passes over memory"'], 0
    for line, sort, formula, cells in rows:
        for k, cell in cells:
            want = formula_value(formula, k) if k is not None and k > 10 else None
            if want is None:
                continue
            checked += 1
            if cell.strip() != str(want):
                problems.append(f'{path}:{line}: "{sort}" at L = 2^{k}: the table says {cell.strip()}, '
                                f'its formula {formula} gives {want}')
    return problems, checked


# --- commands ----------------------------------------------------------------------------------

def code_spans_and_blocks(text):
    """The text of every inline code span (a paragraph's lines joined first, so a span broken
    over two lines is whole) and of every line of a code block: fenced, or indented by four
    spaces after a blank line (an indented line inside a list item is the item's text)."""
    out, paragraph = [], []
    in_fence = in_indented = False
    previous_blank = True

    def flush():
        if paragraph:
            joined = ' '.join(paragraph)
            out.extend(m.group(1) for m in re.finditer(r'`([^`]+)`', joined))
            paragraph.clear()

    for line in text.split('\n'):
        if FENCE.match(line):
            flush()
            in_fence, in_indented = not in_fence, False
            continue
        if in_fence:
            out.append(line)
            continue
        blank = not line.strip()
        if line.startswith('    ') and (in_indented or (previous_blank and not paragraph)):
            in_indented = True
            out.append(line[4:])
        elif blank:
            flush()
        else:
            in_indented = False
            paragraph.append(line.strip())
        previous_blank = blank
    flush()
    return out


def commands(text):
    """Every make command shown: [(command text, [argv of each command in it])]. A code line
    "make lab1 ARGS=... # comment" is one; "touch f; make lab1-build" holds two."""
    found = []
    for code in code_spans_and_blocks(text):
        line = re.sub(r'^\s*\$\s+', '', code).strip()
        if not re.match(r'^(touch\s.*;\s*)?make\s', line):
            continue
        try:
            lexer = shlex.shlex(line, posix=True, punctuation_chars=';&|')
            lexer.whitespace_split = True
            lexer.commenters = '#'
            tokens = list(lexer)
        except ValueError:
            found.append((line, None))
            continue
        parts, current = [], []
        for t in tokens:
            if t in (';', '&&', '||', '|'):
                if current:
                    parts.append(current)
                current = []
            else:
                current.append(t)
        if current:
            parts.append(current)
        found.append((line, parts))
    return found


def main(argv):
    root = os.getcwd()
    if len(argv) < 2:
        print(__doc__)
        return 2
    command = argv[1]
    if command == 'references':
        # handouts.py references FILE...: section and question references (each names a heading
        # or question that exists, by its number and its title's words), heading and question
        # numbering and TODO names (student handouts).
        files = [os.path.join(root, f) for f in argv[2:]]
        student_handouts = [f for f in files if re.match(r'handouts/lab\d+-', os.path.relpath(f, root))]
        problems, count = check_references(root, files)
        problems += check_numbering(root, student_handouts) + check_todos(root, student_handouts)
        for p in problems:
            print('FAIL  ' + p)
        print(f'{len(files)} files read, {count} references, {len(problems)} problem(s)')
        return 1 if problems else 0
    if command == 'source-reports':
        # handouts.py source-reports FILE...: every line that names a source report as a seed.
        count = 0
        for path in argv[2:]:
            for number, line in source_report_references(path):
                print(f'{path}:{number}: {line[:160]}')
                count += 1
        return 1 if count else 0
    if command == 'pass-table':
        problems, checked = check_pass_table(argv[2])
        for p in problems:
            print('FAIL  ' + p)
        print(f'{checked} cells of the pass table checked against their formulas, {len(problems)} wrong')
        return 1 if problems or checked == 0 else 0
    if command == 'commands':
        # handouts.py commands FILE...: one line per command, tab-separated: file, the command
        # as shown, then its words (shell-quoted), or "UNPARSED".
        for path in argv[2:]:
            for line, parts in commands(read(path)):
                if parts is None:
                    print(f'{path}\t{line}\tUNPARSED')
                    continue
                for argv_ in parts:
                    print(f'{path}\t{line}\t' + ' '.join(shlex.quote(a) for a in argv_))
        return 0
    if command == 'rubric':
        # handouts.py rubric check|write GRADER LAB HANDOUT: compare HANDOUT's rubric block with
        # what GRADER prints for LAB (exit 1 and the first line that differs), or rewrite it.
        if len(argv) != 6 or argv[2] not in ('check', 'write'):
            print('usage: handouts.py rubric check|write GRADER LAB HANDOUT', file=sys.stderr)
            return 2
        verb, grader, lab, handout = argv[2:]
        wanted = grader_rubric(grader, lab)
        if verb == 'write':
            try:
                changed = write_rubric(handout, wanted)
            except ValueError as e:
                print(f'{handout}: {e}', file=sys.stderr)
                return 1
            print(f'{handout}: {lab}\'s rubric {"rewritten" if changed else "unchanged"}')
            return 0
        problems = check_rubric(handout, lab, wanted)
        for p in problems:
            print('FAIL  ' + p)
        return 1 if problems else 0
    print(f'unknown command {command}', file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
