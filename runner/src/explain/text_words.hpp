// Finding the words of a resource in a learner's text: lower case, '-' and '_' read as
// spaces, whole words only (a trailing plural 's' allowed), and a word under a negation
// ("not memory-bound", "isn't compute bound") is told apart from a claim.
#pragma once

#include <string>
#include <vector>

namespace workbook {

// The text as the words are matched: lower case, '-' and '_' as spaces, runs of spaces as one.
std::string normal_text(const std::string& text);

struct WordHit {
  std::string word;
  bool negated = false;  // "not", "no", "never", "isn't", "without", "rather than", ... just before it, in its clause
};

// Every hit of `words` (already normalised) in `normal` (normal_text), in text order.
std::vector<WordHit> find_words(const std::string& normal, const std::vector<std::string>& words);

// The first hit that is not negated, or nullptr.
const WordHit* first_claim(const std::vector<WordHit>& hits);

}  // namespace workbook
