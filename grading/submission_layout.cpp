#include "submission_layout.hpp"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <stdexcept>

namespace {

bool ends_with(const std::string& text, const std::string& tail) {
    return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

std::string lower(std::string text) {
    for (char& c : text) c = char(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

std::string join(const std::vector<std::string>& words, const std::string& between) {
    std::string text;
    for (const std::string& w : words) text += (text.empty() ? "" : between) + w;
    return text;
}

int64_t changed_ns(const struct stat& info) { return int64_t(info.st_mtim.tv_sec) * 1000000000 + info.st_mtim.tv_nsec; }

// The names in FOLDER, "." and ".." left out, by name.
std::vector<std::string> names_in(const std::string& folder) {
    std::vector<std::string> names;
    DIR* dir = opendir(folder.c_str());
    if (!dir) return names;
    while (dirent* entry = readdir(dir)) {
        std::string name = entry->d_name;
        if (name != "." && name != "..") names.push_back(name);
    }
    closedir(dir);
    std::sort(names.begin(), names.end());
    return names;
}

// The newest time of PATH and, for a folder, of everything under it; links not followed.
int64_t newest_ns(const std::string& path) {
    struct stat info {};
    if (lstat(path.c_str(), &info) != 0) return 0;
    int64_t newest = changed_ns(info);
    if (S_ISDIR(info.st_mode))
        for (const std::string& name : names_in(path)) newest = std::max(newest, newest_ns(path + "/" + name));
    return newest;
}

// Whether PATH is a plain file (links followed, as the shell's -f does), and its size.
bool is_file(const std::string& path, uintmax_t& bytes) {
    struct stat info {};
    if (stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return false;
    bytes = uintmax_t(info.st_size);
    return true;
}

// Plain files under ROOT, at most `depth` folders down, whose names hold STEM (case aside),
// relative to ROOT, by path: what a student probably meant.
void similar_files(const std::string& root, const std::string& prefix, const std::string& stem, int depth,
                   std::vector<std::string>& found) {
    for (const std::string& name : names_in(root + "/" + prefix)) {
        std::string path = prefix.empty() ? name : prefix + "/" + name;
        struct stat info {};
        if (lstat((root + "/" + path).c_str(), &info) != 0) continue;
        if (S_ISREG(info.st_mode) && lower(name).find(stem) != std::string::npos) found.push_back(path);
        if (S_ISDIR(info.st_mode) && depth > 1) similar_files(root, path, stem, depth - 1, found);
    }
}

// PATH as a feedback line may show it: a control character as \xNN, at most 120 bytes.
std::string shown_path(const std::string& path) {
    std::string shown;
    for (unsigned char c : path) {
        char escaped[8];
        std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
        shown += c < 0x20 || c == 0x7f ? std::string(escaped) : std::string(1, char(c));
    }
    return shown.substr(0, 120);
}

bool has_control_character(const std::string& name) {
    return std::any_of(name.begin(), name.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

struct FolderCount {
    uintmax_t files = 0, bytes = 0;
    std::string odd;  // the first entry that is not accepted, relative
};

void count_folder(const std::string& root, const std::string& prefix, FolderCount& count) {
    for (const std::string& name : names_in(root + "/" + prefix)) {
        if (!count.odd.empty()) return;
        const std::string path = prefix.empty() ? name : prefix + "/" + name;
        struct stat info {};
        if (lstat((root + "/" + path).c_str(), &info) != 0 || has_control_character(name) ||
            !(S_ISREG(info.st_mode) || S_ISDIR(info.st_mode))) {
            count.odd = path;
            return;
        }
        if (S_ISDIR(info.st_mode)) {
            count_folder(root, path, count);
        } else {
            count.files += 1;
            count.bytes += uintmax_t(info.st_size);
        }
    }
}

}  // namespace

std::string submission_folder_problem(const std::string& folder, const SubmissionLimits& limits, const std::string& what) {
    FolderCount count;
    count_folder(folder, "", count);
    if (!count.odd.empty())
        return "the " + what + " holds a link, a special file or a name with a control character, which is not accepted: " +
               shown_path(count.odd);
    if (count.files == 0) return "the submission is empty";
    if (count.files > limits.max_files)
        return "the submission holds " + std::to_string(count.files) + " files (at most " + std::to_string(limits.max_files) + ")";
    if (count.bytes > limits.max_bytes)
        return "the submission holds " + std::to_string(count.bytes >> 20) + " MB (at most " +
               std::to_string(limits.max_bytes >> 20) + " MB)";
    return "";
}

std::string submission_root(const std::string& folder) {
    std::vector<std::string> entries;
    for (const std::string& name : names_in(folder))
        if (name != "__MACOSX" && name != ".DS_Store" && name.rfind("._", 0) != 0) entries.push_back(name);
    struct stat info {};
    if (entries.size() != 1 || lstat((folder + "/" + entries[0]).c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
        return folder;
    const std::string& name = entries[0];
    const bool lab_folder = name.size() > 3 && name.rfind("lab", 0) == 0 && std::isdigit(static_cast<unsigned char>(name[3]));
    return name == "labs" || lab_folder ? folder : folder + "/" + name;
}

std::string student_id(const std::string& entry_name, bool is_folder) {
    std::string name = entry_name;
    if (!is_folder) {
        size_t dot = name.rfind('.');
        if (ends_with(name, ".tar.gz"))
            name.resize(name.size() - 7);
        else if (dot != std::string::npos && dot > 0)
            name.resize(dot);
    }
    // One _ a character: a UTF-8 sequence counts once.
    std::string id;
    for (unsigned char c : name) {
        if (std::isalnum(c) || c == '.' || c == '_' || c == '@' || c == '+' || c == '-')
            id += char(c);
        else if ((c & 0xC0) != 0x80)
            id += '_';
    }
    if (id.empty() || id[0] == '.') id = "_" + id;
    return id;
}

std::vector<SubmissionEntry> read_submission_entries(const std::string& folder) {
    DIR* dir = opendir(folder.c_str());
    if (!dir) throw std::runtime_error("cannot read the submissions folder " + folder);
    closedir(dir);
    std::vector<SubmissionEntry> entries;
    for (const std::string& name : names_in(folder)) {
        if (name[0] == '.') continue;
        struct stat info {};
        if (lstat((folder + "/" + name).c_str(), &info) != 0) continue;
        entries.push_back({name, S_ISDIR(info.st_mode), newest_ns(folder + "/" + name)});
    }
    return entries;
}

std::vector<StudentEntry> choose_entries(const std::vector<SubmissionEntry>& entries) {
    std::vector<std::string> order;
    std::map<std::string, std::vector<const SubmissionEntry*>> of;
    for (const SubmissionEntry& e : entries) {
        std::string id = student_id(e.name, e.is_folder);
        if (!of.count(id)) order.push_back(id);
        of[id].push_back(&e);
    }
    std::vector<StudentEntry> students;
    for (const std::string& id : order) {
        const std::vector<const SubmissionEntry*>& mine = of[id];
        StudentEntry s{id, mine.front()->name, "", ""};
        if (mine.size() > 1) {
            std::vector<std::string> names;
            const SubmissionEntry* newest = mine.front();
            for (const SubmissionEntry* e : mine) {
                names.push_back(e->name);
                if (e->changed_ns > newest->changed_ns) newest = e;
            }
            long ties = std::count_if(mine.begin(), mine.end(), [&](const SubmissionEntry* e) { return e->changed_ns == newest->changed_ns; });
            if (ties > 1) {
                s.conflict = join(names, ", ");
            } else {
                s.entry = newest->name;
                s.note = "graded " + newest->name + ", the newest of the entries for this student (" + join(names, ", ") +
                         "); the others were ignored";
            }
        }
        students.push_back(s);
    }
    return students;
}

LabFiles find_lab_files(const std::string& submission, const std::string& lab, const std::vector<std::string>& names,
                        const std::set<std::string>& shared_names, uintmax_t max_bytes) {
    const std::string root = submission_root(submission);
    LabFiles result;
    std::set<std::string> seen;
    for (const std::string& file : names) {
        if (!seen.insert(file).second) {
            result.problems.push_back(file + " was found twice");
            continue;
        }
        std::vector<std::string> places = {"labs/" + lab + "/" + file, lab + "/" + file}, found;
        if (!shared_names.count(file)) places.push_back(file);
        uintmax_t bytes = 0;  // the size of the last one found: the one, when only one is
        for (const std::string& place : places)
            if (is_file(root + "/" + place, bytes)) found.push_back(place);
        if (found.size() > 1) {
            result.problems.push_back(file + " appears in more than one place (" + join(found, " ") + "): keep one");
        } else if (found.size() == 1) {
            if (bytes > max_bytes)
                result.problems.push_back(file + " is larger than " + std::to_string(max_bytes >> 10) + " KB");
            else
                result.paths.push_back(root + "/" + found[0]);
        } else {
            std::vector<std::string> similar;
            size_t dot = file.rfind('.');
            similar_files(root, "", lower(dot == std::string::npos ? file : file.substr(0, dot)), 4, similar);
            if (similar.size() > 3) similar.resize(3);
            std::string named = join(similar, ", ").substr(0, 200);
            result.problems.push_back(named.empty() ? file + " is missing (expected " + file + " or " + lab + "/" + file + ")"
                                                    : file + " is missing; found " + named +
                                                          " instead: the file must be named exactly " + file +
                                                          ", at the top of the submission or in " + lab + "/");
        }
    }
    if (!result.problems.empty()) result.paths.clear();
    return result;
}
