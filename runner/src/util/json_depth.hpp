// How deeply a JSON text nests, found by a cheap scan before it is parsed: nlohmann::json
// recurses once per level (parsing and destroying), so a hostile file of 200,000 `[`
// would overflow the stack. Strings (with their escapes) are skipped; the text is not
// otherwise checked (the parser does that).
#pragma once

#include <cstddef>
#include <string_view>

namespace workbook {

// True when some array or object in `text` lies more than `limit` levels deep (the
// outermost value is level 1).
bool json_nests_deeper_than(std::string_view text, std::size_t limit);

}  // namespace workbook
