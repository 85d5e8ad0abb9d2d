import CRuntimeHooks
import Foundation

/// What Dispatch's own API asks of the runner beyond queuing a block: `group.notify`, a work
/// item's `notify` and `wait`, and `sync`, which runs on the caller's thread at once.
extension ScenarioScheduler {
    /// Queues `work` once `group` is empty (`group.notify`); checked whenever the runner is idle.
    func notify(_ group: DispatchCapture.Object, work: DispatchWork) {
        condition.withLock { notifications.add(work, whenEmpty: group) }
    }

    /// Queues `work` once the work item whose block is `item` has run: at once if it has, else
    /// right after the runner runs it, or at the next idle moment if the app called it itself.
    func notify(afterWorkItem item: DispatchCapture.Object, work: DispatchWork) {
        condition.withLock {
            notifications.add(work, afterWorkItem: item)
            queueDue(notifications.dueAfterWorkItems())
        }
    }

    /// Whether the work item whose block is `item` has run.
    func workItemHasRun(_ item: DispatchCapture.Object) -> Bool {
        condition.withLock { notifications.hasRun(item) }
    }

    /// Queues notification blocks that came due (lock held).
    func queueDue(_ due: [DispatchWork]) {
        for work in due { queue.append(entry(.block(work))) }
    }

    /// Runs a `sync` block on `queue` now: first what that queue already holds, as Dispatch would.
    func runSync(on target: DispatchCapture.Object, block: UnsafeMutableRawPointer) {
        let earlier: [DispatchWork] = condition.withLock {
            var taken: [DispatchWork] = []
            var kept: [Entry] = []
            for entry in queue[head...] {
                if case .block(let work) = entry.work, work.queue == target { taken.append(work) } else { kept.append(entry) }
            }
            if !taken.isEmpty {
                queue = kept
                head = 0
            }
            return taken
        }
        holding(DispatchCapture.runsSideBySide(target) ? nil : target) {
            run(on: target, holdingItsRealLock: DispatchCapture.guardsSharedState(target)) {
                for work in earlier { run(work, holdingItsQueue: true) }
                ssdc_block_invoke(block)
            }
        }
    }
}
