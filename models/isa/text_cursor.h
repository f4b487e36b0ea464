// A cursor over one line of assembly text: the small lexical layer the bundle and packet parsers
// share. Errors carry the 1-based column; the assembler adds the file and line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace coralsim::isa {

class SyntaxError : public std::runtime_error {
 public:
  SyntaxError(size_t column, const std::string& message) : std::runtime_error(message), column_(column) {}
  [[nodiscard]] size_t column() const { return column_; }

 private:
  size_t column_;
};

class TextCursor {
 public:
  // `text` is the statement part of a line; `firstColumn` the column of its first character.
  explicit TextCursor(std::string_view text, size_t firstColumn = 1) : text_(text), base_(firstColumn) {}

  void skipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\r')) ++pos_;
  }
  [[nodiscard]] bool atEnd() {
    skipSpace();
    return pos_ >= text_.size();
  }
  [[nodiscard]] char peek() {
    skipSpace();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  // Consumes `c` if it is the next non-blank character.
  bool accept(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  // Consumes `token` if the text continues with it ("+=").
  bool accept(std::string_view token) {
    skipSpace();
    if (text_.substr(pos_).substr(0, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }
  void expect(char c, std::string_view context) {
    if (!accept(c)) error(std::string("expected '") + c + "' " + std::string(context) + describeNext());
  }

  // A name: [A-Za-z_.][A-Za-z0-9_.]*; "" if none here (nothing consumed).
  std::string_view identifier() {
    skipSpace();
    size_t end = pos_;
    if (end < text_.size() && isNameStart(text_[end])) {
      ++end;
      while (end < text_.size() && isNameChar(text_[end])) ++end;
    }
    std::string_view name = text_.substr(pos_, end - pos_);
    pos_ = end;
    return name;
  }
  // Peeks at the next name without consuming it.
  [[nodiscard]] std::string_view peekIdentifier() {
    const size_t saved = pos_;
    std::string_view name = identifier();
    pos_ = saved;
    return name;
  }

  // A value: a run of [A-Za-z0-9_.:+-] ("0x1f", "-72", "1.5e-3", "nan:0x7fc00001", "loop_top").
  std::string_view valueToken() {
    skipSpace();
    size_t end = pos_;
    while (end < text_.size() && isValueChar(text_[end])) ++end;
    std::string_view value = text_.substr(pos_, end - pos_);
    pos_ = end;
    return value;
  }

  // The run of characters satisfying `pred` (possibly empty).
  template <typename Pred>
  std::string_view takeWhile(Pred pred) {
    skipSpace();
    size_t end = pos_;
    while (end < text_.size() && pred(text_[end])) ++end;
    std::string_view run = text_.substr(pos_, end - pos_);
    pos_ = end;
    return run;
  }

  // Column of the next token (blanks are skipped first).
  [[nodiscard]] size_t column() {
    skipSpace();
    return base_ + pos_;
  }
  [[nodiscard]] size_t position() const { return pos_; }
  void rewind(size_t position) { pos_ = position; }

  [[noreturn]] void error(const std::string& message) { throw SyntaxError(column(), message); }
  [[noreturn]] void errorAt(size_t column, const std::string& message) const { throw SyntaxError(column, message); }

  // ", found 'xyz'" / ", found end of line": for error messages.
  [[nodiscard]] std::string describeNext() {
    skipSpace();
    if (pos_ >= text_.size()) return ", found end of line";
    size_t end = pos_ + 1;
    while (end < text_.size() && end - pos_ < 16 && text_[end] != ' ' && text_[end] != '\t') ++end;
    return ", found '" + std::string(text_.substr(pos_, end - pos_)) + "'";
  }

  static constexpr bool isNameStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.';
  }
  static constexpr bool isNameChar(char c) { return isNameStart(c) || (c >= '0' && c <= '9'); }
  static constexpr bool isValueChar(char c) { return isNameChar(c) || c == ':' || c == '+' || c == '-'; }

 private:
  std::string_view text_;
  size_t base_;
  size_t pos_ = 0;
};

}  // namespace coralsim::isa
