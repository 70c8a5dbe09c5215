#include "similarity.hpp"

#include <algorithm>
#include <cctype>
#include <deque>

#include "source_scan.hpp"

namespace {

bool is_keyword(const std::string& word) {
    // Words that give a program its shape; everything else is a name a student may choose.
    static const std::set<std::string> keywords = {
        "if", "else", "for", "while", "do", "switch", "case", "default", "break", "continue", "return",
        "goto", "template", "typename", "class", "struct", "union", "enum", "namespace", "using",
        "const", "constexpr", "static", "inline", "volatile", "extern", "sizeof", "new", "delete",
        "void", "bool", "char", "short", "int", "long", "float", "double", "unsigned", "signed", "auto",
        "true", "false", "nullptr", "__global__", "__device__", "__host__", "__shared__", "__restrict__",
        "__syncthreads", "__syncwarp", "threadIdx", "blockIdx", "blockDim", "gridDim", "launch", "dim3"};
    return keywords.count(word) != 0;
}

uint64_t fnv1a(const std::string& text, uint64_t hash = 1469598103934665603ull) {
    for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
    return hash;
}

}  // namespace

std::vector<std::string> similarity_tokens(const std::string& source) {
    std::string text = strip_comments(source);
    std::vector<std::string> tokens;
    size_t i = 0;
    while (i < text.size()) {
        unsigned char c = text[i];
        if (std::isspace(c)) {
            ++i;
        } else if (c == '#') {  // a preprocessor line: its directive only
            size_t end = std::min(text.find('\n', i), text.size());
            size_t word = std::min(text.find_first_not_of(" \t", i + 1), end);
            size_t stop = std::min(text.find_first_of(" \t\n<\"", word), end);
            tokens.push_back("#" + text.substr(word, stop - word));
            i = end;
        } else if (std::isalpha(c) || c == '_') {
            size_t j = i;
            while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
            std::string word = text.substr(i, j - i);
            tokens.push_back(is_keyword(word) ? word : "i");
            i = j;
        } else if (std::isdigit(c) || (c == '.' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1])))) {
            size_t j = i;
            while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '.' || text[j] == '_')) ++j;
            tokens.push_back("n");
            i = j;
        } else if (c == '"' || c == '\'') {
            size_t j = i + 1;
            while (j < text.size() && text[j] != char(c) && text[j] != '\n') j += text[j] == '\\' ? 2 : 1;
            tokens.push_back("s");
            i = std::min(text.size(), j + 1);
        } else {
            static const char* two[] = {"<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++", "--", "+=", "-=",
                                        "*=", "/=", "%=", "&=", "|=", "^=", "->", "::"};
            std::string op(1, char(c));
            for (const char* t : two)
                if (text.compare(i, 2, t) == 0) op = t;
            tokens.push_back(op);
            i += op.size();
        }
    }
    return tokens;
}

std::set<uint64_t> fingerprints(const std::vector<std::string>& tokens) {
    std::set<uint64_t> prints;
    if (tokens.size() < size_t(kTokens)) return prints;
    std::vector<uint64_t> hashes;
    for (size_t i = 0; i + kTokens <= tokens.size(); ++i) {
        uint64_t h = 1469598103934665603ull;
        for (int k = 0; k < kTokens; ++k) h = fnv1a(tokens[i + k] + " ", h);
        hashes.push_back(h);
    }
    // Each window keeps its smallest hash (the rightmost of equals), each choice once.
    size_t window = std::min(hashes.size(), size_t(kWindow));
    for (size_t start = 0; start + window <= hashes.size(); ++start) {
        size_t best = start;
        for (size_t j = start; j < start + window; ++j)
            if (hashes[j] <= hashes[best]) best = j;
        prints.insert(hashes[best]);
    }
    return prints;
}

Submission make_submission(const std::string& student, const std::string& sources, const std::set<uint64_t>& starter) {
    Submission s;
    s.student = student;
    for (uint64_t p : fingerprints(similarity_tokens(sources)))
        if (!starter.count(p)) s.prints.insert(p);
    return s;
}

std::vector<SimilarPair> similar_pairs(const std::vector<Submission>& submissions, double floor, size_t min_common) {
    std::vector<SimilarPair> pairs;
    for (size_t i = 0; i < submissions.size(); ++i)
        for (size_t j = i + 1; j < submissions.size(); ++j) {
            const Submission &a = submissions[i], &b = submissions[j];
            size_t smaller = std::min(a.prints.size(), b.prints.size());
            if (smaller < min_common) continue;
            size_t common = 0;
            for (uint64_t p : a.prints) common += b.prints.count(p);
            double shared = double(common) / double(smaller);
            if (common >= min_common && shared >= floor) pairs.push_back({a.student, b.student, shared, common});
        }
    std::sort(pairs.begin(), pairs.end(), [](const SimilarPair& x, const SimilarPair& y) {
        return x.shared != y.shared ? x.shared > y.shared : x.common > y.common;
    });
    return pairs;
}
