// Placeholder translation unit; replaced by the opcode table implementation.
namespace coralsim::isa {}
