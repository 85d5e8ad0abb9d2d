/// The last few addresses seen, in a ring: whether an address is new to them costs a few
/// comparisons and no lock.
struct RecentAddresses {
    private var ring: (UnsafeRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?) = (nil, nil, nil, nil)
    private var next = 0

    /// Adds `address`; `false` when it was among the last four.
    mutating func insert(_ address: UnsafeRawPointer) -> Bool {
        if ring.0 == address || ring.1 == address || ring.2 == address || ring.3 == address { return false }
        switch next {
        case 0: ring.0 = address
        case 1: ring.1 = address
        case 2: ring.2 = address
        default: ring.3 = address
        }
        next = (next + 1) & 3
        return true
    }
}
