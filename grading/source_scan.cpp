#include "source_scan.hpp"

#include <algorithm>
#include <climits>
#include <cctype>
#include <cstdlib>
#include <regex>
#include <set>
#include <sstream>

#include "result_files.hpp"
#include "untrusted_text.hpp"

std::string strip_comments(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    size_t i = 0, n = s.size();
    auto blank_until = [&](size_t end) {  // comment text -> spaces, keeping line breaks
        for (; i < end && i < n; ++i) out += s[i] == '\n' ? '\n' : ' ';
    };
    while (i < n) {
        if (s.compare(i, 2, "//") == 0) {
            size_t end = i;
            while (end < n && s[end] != '\n') end += (s[end] == '\\' && end + 1 < n) ? 2 : 1;
            blank_until(end);
        } else if (s.compare(i, 2, "/*") == 0) {
            size_t close = s.find("*/", i + 2);
            blank_until(close == std::string::npos ? n : close + 2);
        } else if (s[i] == 'R' && i + 1 < n && s[i + 1] == '"' &&
                   (i == 0 || !(std::isalnum(static_cast<unsigned char>(s[i - 1])) || s[i - 1] == '_'))) {
            size_t open = s.find('(', i + 2);
            if (open == std::string::npos) {
                out += s[i++];
                continue;
            }
            std::string terminator = ")" + s.substr(i + 2, open - i - 2) + "\"";
            size_t close = s.find(terminator, open);
            size_t end = close == std::string::npos ? n : close + terminator.size();
            out.append(s, i, end - i);
            i = end;
        } else if (s[i] == '"' || s[i] == '\'') {
            char quote = s[i];
            size_t end = i + 1;
            while (end < n && s[end] != quote && s[end] != '\n') end += (s[end] == '\\' && end + 1 < n) ? 2 : 1;
            end = std::min(n, end + 1);
            out.append(s, i, end - i);
            i = end;
        } else {
            out += s[i++];
        }
    }
    return out;
}

namespace {

void search(const std::string& part, const std::string& pattern, const std::string& file, const std::string& source,
            const std::vector<std::string>* symbols, std::vector<ForbiddenMatch>& found) {
    std::regex re(pattern, std::regex::extended | std::regex::icase);
    std::istringstream in(strip_comments(source));
    int number = 0;
    for (std::string line; std::getline(in, line);) {
        ++number;
        if (std::regex_search(line, re)) found.push_back({part, file + ":" + std::to_string(number), clean_line(line, 200)});
    }
    if (symbols)
        for (const std::string& name : *symbols)
            if (std::regex_search(name, re)) found.push_back({part, file + " (object file)", clean_line(name, 200)});
}

}  // namespace

std::vector<std::string> included_headers(const std::string& preprocessed) {
    static const std::regex marker("^#[ \t]*(line[ \t]+)?[0-9]+[ \t]+\"([^\"]*)\"");
    std::vector<std::string> headers;
    std::set<std::string> seen;
    std::istringstream in(preprocessed);
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] != '#') continue;
        std::smatch m;
        if (!std::regex_search(line, m, marker)) continue;
        std::string path = m[2].str();
        if (path.empty() || path[0] == '<') continue;  // <built-in>, <command-line>
        if (seen.insert(path).second) headers.push_back(path);
    }
    return headers;
}

std::vector<ForbiddenMatch> find_forbidden(const LabPlan& plan, const std::map<std::string, std::string>& sources,
                                           const std::map<std::string, std::vector<std::string>>& symbols,
                                           const std::map<std::string, CompiledFile>& compiled,
                                           const std::set<std::string>& starter_headers) {
    std::vector<ForbiddenMatch> found;
    auto check = [&](const std::string& part, const std::string& pattern, const std::vector<std::string>& files) {
        if (pattern.empty()) return;
        std::regex re(pattern, std::regex::extended | std::regex::icase);
        for (const std::string& file : files) {
            auto source = sources.find(file);
            if (source == sources.end()) continue;
            auto names = symbols.find(file);
            search(part, pattern, file, source->second, names == symbols.end() ? nullptr : &names->second, found);
            auto made = compiled.find(file);
            if (made == compiled.end()) continue;
            for (const std::string& header : made->second.headers)
                if (!starter_headers.count(header) && std::regex_search(header, re))
                    found.push_back({part, file + " (includes " + clean_line(header, 160) + ")", clean_line(header, 200)});
        }
    };
    // A construct rule: the part's pattern in the compiled code, at most three lines a file.
    auto check_ptx = [&](const PartPlan& part) {
        if (part.forbidden_ptx.empty()) return;
        std::regex re(part.forbidden_ptx, std::regex::extended);
        for (const std::string& file : part.files) {
            auto made = compiled.find(file);
            if (made == compiled.end()) continue;
            std::istringstream in(made->second.ptx);
            int number = 0, shown = 0;
            for (std::string line; std::getline(in, line) && shown < 3;) {
                ++number;
                if (!std::regex_search(line, re)) continue;
                size_t start = line.find_first_not_of(" \t");
                found.push_back({part.name, file + " (compiled code, PTX line " + std::to_string(number) + ")",
                                 clean_line(line.substr(start == std::string::npos ? 0 : start), 200)});
                ++shown;
            }
        }
    };
    check("*", plan.forbidden, plan.student_files);
    for (const PartPlan& part : plan.parts) {
        check(part.name, part.forbidden, part.files);
        check_ptx(part);
    }
    return found;
}

std::vector<std::string> find_outside_includes(const std::string& file_name, const std::string& source) {
    static const std::regex directive("^[ \t]*#[ \t]*(include|include_next|import|embed)[ \t]*(.*)$");
    static const std::regex quoted("^[\"<]([^\">]*)[\">]");
    std::vector<std::string> problems;
    std::istringstream in(strip_comments(source));
    int number = 0;
    for (std::string line; std::getline(in, line);) {
        ++number;
        std::string where = file_name + ":" + std::to_string(number) + ": ";
        if (line.find(".incbin") != std::string::npos) {
            problems.push_back(where + "`.incbin` reads a file at build time, which is not allowed");
            continue;
        }
        std::smatch m;
        if (!std::regex_match(line, m, directive)) continue;
        std::string keyword = m[1].str(), target = m[2].str();
        if (keyword == "embed") {
            problems.push_back(where + "#embed is not allowed");
            continue;
        }
        std::smatch path;
        if (!std::regex_search(target, path, quoted)) {
            problems.push_back(where + "#" + keyword + " must name its file in \"...\" or <...>, not through a macro");
            continue;
        }
        std::string p = path[1].str();
        bool parent = p == ".." || p.rfind("../", 0) == 0 || p.find("/../") != std::string::npos ||
                      (p.size() >= 3 && p.compare(p.size() - 3, 3, "/..") == 0);
        if (!p.empty() && (p[0] == '/' || parent))
            problems.push_back(where + "#" + keyword + " \"" + clean_line(p, 120) +
                               "\" reaches outside the lab: include only the lab's headers and system headers");
    }
    return problems;
}

std::vector<std::string> outside_dependencies(const std::string& file_name, const std::string& dependencies,
                                              const std::string& box, const std::vector<std::string>& allowed_dirs) {
    // "target: dep dep \<newline> dep", then (-MP) "dep:" lines; a blank inside a name is "\ ".
    std::vector<std::string> words;
    std::string word;
    auto flush = [&] {
        if (!word.empty()) words.push_back(word);
        word.clear();
    };
    for (size_t i = 0; i < dependencies.size(); ++i) {
        char c = dependencies[i];
        if (c == '\\' && i + 1 < dependencies.size() && dependencies[i + 1] == ' ') word += dependencies[++i];
        else if (c == '\\' && i + 1 < dependencies.size() && dependencies[i + 1] == '\n') ++i, flush();
        else if (std::isspace(static_cast<unsigned char>(c))) flush();
        else word += c;
    }
    flush();
    // The real path; for a file that does not exist, the path with its . and .. resolved.
    auto real = [](const std::string& path) {
        char resolved[PATH_MAX];
        if (realpath(path.c_str(), resolved)) return std::string(resolved);
        std::vector<std::string> parts;
        std::istringstream in(path);
        for (std::string part; std::getline(in, part, '/');) {
            if (part == "..") {
                if (!parts.empty()) parts.pop_back();
            } else if (!part.empty() && part != ".") {
                parts.push_back(part);
            }
        }
        std::string normal;
        for (const std::string& part : parts) normal += "/" + part;
        return normal.empty() ? std::string("/") : normal;
    };
    std::vector<std::string> allowed;
    for (const std::string& dir : allowed_dirs) allowed.push_back(real(dir));
    std::vector<std::string> problems;
    std::set<std::string> seen;
    for (size_t i = 0; i < words.size(); ++i) {
        const std::string& w = words[i];
        if (w == ":" || w.back() == ':' || (i + 1 < words.size() && words[i + 1] == ":")) continue;  // a target
        std::string path = w[0] == '/' ? w : box + "/" + w;
        std::string resolved = real(path);
        bool inside = false;
        for (const std::string& dir : allowed) inside |= resolved.rfind(dir + "/", 0) == 0;
        if (!inside && seen.insert(resolved).second)
            problems.push_back(file_name + ": its build read " + clean_line(w, 160) +
                               ", outside the lab: include only the lab's headers and system headers");
    }
    return problems;
}

bool has_incbin(const std::string& text) {
    std::string joined;  // the current run of adjacent string literals, joined
    size_t i = 0;
    auto lower_has = [](std::string s) {
        std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
        return s.find(".incbin") != std::string::npos;
    };
    while (i < text.size()) {
        if (text[i] == '"') {
            size_t j = i + 1;
            while (j < text.size() && text[j] != '"' && text[j] != '\n') j += text[j] == '\\' ? 2 : 1;
            joined += text.substr(i + 1, std::min(j, text.size()) - i - 1);
            i = j + 1;
            size_t next = text.find_first_not_of(" \t\r\n", std::min(i, text.size()));
            if (next == std::string::npos || text[next] != '"') {
                if (lower_has(joined)) return true;
                joined.clear();
            } else {
                i = next;
            }
        } else if (text[i] == '\'') {  // a character literal: '"' must not open a string
            size_t j = i + 1;
            while (j < text.size() && text[j] != '\'' && text[j] != '\n') j += text[j] == '\\' ? 2 : 1;
            i = j + 1;
        } else {
            ++i;
        }
    }
    return lower_has(joined);
}

void write_forbidden(const std::string& path, const std::vector<ForbiddenMatch>& matches) {
    ResultsWriter out(path);
    for (const ForbiddenMatch& m : matches) out.write({{"record", "forbidden"}, {"part", m.part}, {"where", m.where}, {"text", m.text}});
}

std::vector<ForbiddenMatch> read_forbidden(const std::string& path) {
    std::vector<ForbiddenMatch> matches;
    for (Record& r : read_results(path))
        if (r["record"] == "forbidden") matches.push_back({r["part"], r["where"], r["text"]});
    return matches;
}
