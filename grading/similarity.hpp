// The similarity report (instructor only, never in feedback): every pair of submissions of a
// lab compared on what they wrote themselves, the way MOSS does (Schleimer, Wilkerson and
// Aiken, "Winnowing: local algorithms for document fingerprinting", SIGMOD 2003):
//   - tokens, with comments removed, every identifier spelled "i", every number "n", every
//     string or character literal "s" (renaming and retyping change nothing), keywords and
//     operators as they are;
//   - fingerprints: a hash of every run of kTokens consecutive tokens, of which each window
//     of kWindow consecutive hashes keeps its smallest (so any shared run of at least
//     kTokens + kWindow - 1 tokens shares a fingerprint, wherever it lies: reordering the
//     functions changes nothing);
//   - the starter's fingerprints removed: what every student was given is nobody's copying.
// A pair's shared fraction is the number of fingerprints both have over the smaller count.
#pragma once
#include <cstdint>
#include <set>
#include <string>
#include <vector>

constexpr int kTokens = 12;
constexpr int kWindow = 8;

std::vector<std::string> similarity_tokens(const std::string& source);
std::set<uint64_t> fingerprints(const std::vector<std::string>& tokens);

struct Submission {
    std::string student;
    std::set<uint64_t> prints;  // its own: the starter's removed
};

// Fingerprints of a student's sources (all the lab's files, in order), less the starter's.
Submission make_submission(const std::string& student, const std::string& sources, const std::set<uint64_t>& starter);

struct SimilarPair {
    std::string a, b;
    double shared = 0;  // fraction of the smaller set of fingerprints that both have
    size_t common = 0;
};

// Every pair with at least `min_common` fingerprints in common and a shared fraction of at
// least `floor`, most similar first. A submission with fewer than `min_common` fingerprints
// of its own (the starter, nearly) is left out: there is nothing of its own to compare.
std::vector<SimilarPair> similar_pairs(const std::vector<Submission>& submissions, double floor, size_t min_common);
