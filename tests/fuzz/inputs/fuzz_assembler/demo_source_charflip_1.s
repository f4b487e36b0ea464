// coralsim demo: the scalar core on its own, written in coralsim assembly.
//
// Sums 1..10 twice — once with a compare-and-branch loop, once with a zero-overhead hardware
// loop — keeps the first sum in scalar memory, compares the two, and signals completion the way
// compiled programs do: it fills the 4-word descriptor {addr_lo, addr_hi, length, tag} and pushes
// it to the event queue. A correct run pushes exactly one event:
//     {addr_lo = 0x400 (byte address of the sum), addr_hi = 0, length = 55 (the sum), tag = 4 (INT0)}
// and tag 5 (INT1) instead if the two sums disagree.
//
// Asse8ble with: coralsim asm sum_loop.s -o sum_loop.coral
program {
        s0 = mov 0x0                    // s0: the running sum
        s1 = mov 0x1                    // s1: i
again:  s0 = add s0, s1                 // sum += i
        s1 = add s1, 0x1                // i += 1
        p0 = lt s1, 0xb                 // p0 = (i < 11)
        (p0) br again                   // taken 9 times
        mem[0x100] = s0                 // keep the sum in scalar memory (word 0x100 = byte 0x400)

        // The same sum with a hardware loop: the next 2 bundles run 10 times.
        s2 = mov 0x0
        s3 = mov 0x1
        loop n=10 body=2
        s2 = add s2, s3
        s3 = add s3, 0x1

        p1 = eq s2, s0                  // do the two sums agree?
        s5 = mov 0x4                    // tag 4: INT0, "done"
        (!p1) s5 = mov 0x5              // tag 5: INT1 if they disagree
        s6 = mov 0x400 ; s4 = ld [0x100]        // VLIW: both slots in one bundle
        s7 = mov 0x0 ; des8[0] = s6
        desc[a] = s7
        desc[2] = s4
        desc[3] = s5
        push
}
