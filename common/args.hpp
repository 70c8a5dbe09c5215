// Command-line options for the lab drivers: `--name value`, `--name=value` and flags,
// a generated --help, and checked conversions. Any mistake ends the program with one
// line that names the option, the value and what was expected (exit_code::bad_usage).
#pragma once
#include <string>
#include <vector>

class ArgParser {
public:
    ArgParser(std::string program, std::string summary);

    void option(const std::string& name, const std::string& value_name, const std::string& default_value,
                const std::string& help);
    void flag(const std::string& name, const std::string& help);

    // Prints the usage and exits 0 on --help; exits with bad_usage on an unknown option,
    // a missing value or a stray argument.
    void parse(int argc, const char* const* argv);

    std::string text(const std::string& name) const;
    long long integer(const std::string& name, long long min, long long max) const;
    double number(const std::string& name, double min, double max) const;
    bool is_set(const std::string& name) const;  // a flag was given
    std::string usage() const;

private:
    struct Option {
        std::string name, value_name, value, default_value, help;
        bool is_flag = false;
        bool given = false;
    };
    const Option& find(const std::string& name) const;
    Option* lookup(const std::string& name);

    std::string program_, summary_;
    std::vector<Option> options_;
};

// "naive,tiled" -> {"naive", "tiled"}; empty items are dropped.
std::vector<std::string> split_list(const std::string& text, char separator = ',');
// The converse: {"naive", "tiled"} and ", " -> "naive, tiled".
std::string join_list(const std::vector<std::string>& items, const std::string& separator);
