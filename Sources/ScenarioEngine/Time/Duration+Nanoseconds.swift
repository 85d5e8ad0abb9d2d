extension Duration {
    /// Whole nanoseconds, truncated; beyond `Int64`'s range its nearest bound, so that no
    /// duration traps or wraps.
    package var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, carry) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        guard !overflow, !carry else { return seconds < 0 ? .min : .max }
        return total
    }
}
