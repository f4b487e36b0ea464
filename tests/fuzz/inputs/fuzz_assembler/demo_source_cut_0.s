// coralsim demo: the scalar core on its own, written in coralsim assembly.
//
// Sums 1..10 twice — once with a compare-and-branch loop, once with a zero-overhead hardware
// loop — keeps the first sum in scalar memory, compares the two, and signals completion the way
// co