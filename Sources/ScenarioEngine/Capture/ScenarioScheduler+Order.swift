extension ScenarioScheduler {
    /// Answers of the scripted backend waiting to reach the stack, in the order they came due.
    /// The next goes once everything the previous one caused has run or waits, or, under an
    /// explored schedule, when the schedule picks one that arrived together with the last.
    struct DueAnswers {
        private(set) var entries: [Entry] = []
        /// How many of the first entries were already due when the last answer was handed on.
        private var together = 0

        var isEmpty: Bool { entries.isEmpty }

        /// The answers that arrived together with the last one handed on: under an explored
        /// schedule they may reach the stack while it still handles that one, as on the real
        /// network. An answer that came due later waits for the app to be idle, so the stack's
        /// own work in hand (its other requests) runs first.
        var arrivedTogether: ArraySlice<Entry> { entries.prefix(together) }

        mutating func add(_ entry: Entry) { entries.append(entry) }

        /// Takes the answer at `index` to hand on; the others due now arrived together with it.
        mutating func handOn(_ index: Int) -> Entry {
            let entry = entries.remove(at: index)
            together = entries.count
            return entry
        }
    }

    /// Tasks (and serial queues) numbered by first appearance: what an explored schedule gives
    /// priorities to.
    struct TaskOrdinals {
        /// A task or serial queue by address (they live while they matter), or one piece of work
        /// by the order it was made in (its address may come back).
        private enum Key: Hashable {
            case task(UInt64)
            case address(UnsafeRawPointer)
            case piece(Int)
        }
        private var known: [Key: Int] = [:]

        /// The task (or serial queue) `entry` belongs to.
        mutating func of(_ entry: Entry) -> Int {
            let key: Key
            switch entry.work {
            case .job(let job, _):
                // A task by its id: a finished task's address can come back for another one.
                let id = RuntimeHooks.taskID(of: job)
                key = id != 0 ? .task(id) : .piece(entry.sequence)
            case .block(let block): key = block.isConcurrent ? .piece(entry.sequence) : .address(UnsafeRawPointer(block.serialRoot))
            case .delivery: key = .piece(entry.sequence)
            }
            if let number = known[key] { return number }
            known[key] = known.count
            return known.count - 1
        }
    }
}
