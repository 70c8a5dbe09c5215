// JSON output without a library: string escaping (RFC 8259) and numbers that stay valid
// JSON (no NaN or infinity, which JSON cannot express).
#pragma once
#include <string>

// "text" with quotes, backslashes and control characters escaped. Bytes that are not valid
// UTF-8 are replaced, so the document always parses.
std::string json_string(const std::string& text);
// A finite number with up to 4 decimals ("12.5", "0"); 0 for NaN or infinity.
std::string json_number(double value);
