/// A job as the host knows it again: its address, and the id of the task it runs. A freed task's
/// address is soon another's (another test's task, beside other tests), so the address alone
/// would hand that job to a scenario it never belonged to; task ids are never reused.
struct JobIdentity: Hashable {
    let address: UnsafeRawPointer
    /// The task's id; 0 for a job of no task, which only its address tells apart.
    let task: UInt64
}

/// The jobs scenarios owned, so a resume from another thread finds its way back to its scenario,
/// and the tasks that handed work to another thread, whose resume from there is expected.
/// (Not locked: the host holds its lock around every use.)
struct OwnedJobs {
    private var owners: [UnsafeRawPointer: (task: UInt64, scheduler: ScenarioScheduler)] = [:]
    private var awaitingResume: Set<JobIdentity> = []

    /// `job` is `scheduler`'s (a job at the same address before it is forgotten).
    mutating func remember(_ job: JobIdentity, for scheduler: ScenarioScheduler) {
        owners[job.address] = (job.task, scheduler)
    }

    /// `task`, which is `scheduler`'s, waits on another thread that will resume it.
    mutating func awaitResume(of task: JobIdentity, for scheduler: ScenarioScheduler) {
        remember(task, for: scheduler)
        awaitingResume.insert(task)
    }

    /// The scheduler that owns `job`, and whether this is the awaited resume of a task (counted
    /// once). A job at a known address but of another task is no scenario's: the address is forgotten.
    mutating func owner(of job: JobIdentity) -> (scheduler: ScenarioScheduler, awaited: Bool)? {
        guard let known = owners[job.address] else { return nil }
        guard known.task == job.task else {
            owners[job.address] = nil
            awaitingResume = awaitingResume.filter { $0.address != job.address }
            return nil
        }
        return (known.scheduler, awaitingResume.remove(job) != nil)
    }

    /// Forgets every job of `scheduler`: its run is over.
    mutating func forget(_ scheduler: ScenarioScheduler) {
        owners = owners.filter { $0.value.scheduler !== scheduler }
        awaitingResume = awaitingResume.filter { owners[$0.address] != nil }
    }
}
