/// The last few jobs seen, in a ring: whether a job is new to them costs a few comparisons and no
/// lock.
struct RecentJobs {
    private var ring: (JobIdentity?, JobIdentity?, JobIdentity?, JobIdentity?) = (nil, nil, nil, nil)
    private var next = 0

    /// Adds `job`; `false` when it was among the last four.
    mutating func insert(_ job: JobIdentity) -> Bool {
        if ring.0 == job || ring.1 == job || ring.2 == job || ring.3 == job { return false }
        switch next {
        case 0: ring.0 = job
        case 1: ring.1 = job
        case 2: ring.2 = job
        default: ring.3 = job
        }
        next = (next + 1) & 3
        return true
    }
}
