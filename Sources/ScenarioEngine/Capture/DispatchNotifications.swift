import CRuntimeHooks

/// Dispatch blocks that wait for something before they are queued: a `group.notify` block until
/// its group is empty, a `DispatchWorkItem.notify` block until its item has run. The scheduler
/// holds one and asks it, under its lock, what has come due.
final class DispatchNotifications {
    private var afterGroups: [(group: DispatchCapture.Object, work: DispatchWork)] = []
    /// Work items' blocks are held while they are listed here, so an address stays one item's.
    private var afterWorkItems: [(item: DispatchCapture.Object, work: DispatchWork)] = []
    /// Work items seen to have run. libdispatch lets a work item be waited for once: looking
    /// uses that wait, so later `wait()`s of the app on the runner are answered from here.
    private var workItemsRun: Set<DispatchCapture.Object> = []

    /// `work` waits for `group` to be empty (the group is held meanwhile).
    func add(_ work: DispatchWork, whenEmpty group: DispatchCapture.Object) {
        ssdc_retain(group)
        afterGroups.append((group, work))
    }

    /// `work` waits for the work item whose block is `item` to run.
    func add(_ work: DispatchWork, afterWorkItem item: DispatchCapture.Object) {
        afterWorkItems.append((held(item), work))
    }

    /// Whether the work item whose block is `item` has run. Looking costs nothing: libdispatch's
    /// wait with a deadline of now.
    func hasRun(_ item: DispatchCapture.Object) -> Bool {
        if workItemsRun.contains(item) { return true }
        guard ssdc_real_block_wait(item, 0) == 0 else { return false }
        workItemsRun.insert(held(item))
        return true
    }

    /// Holds a work item's block (a heap block: the copy is the same block, retained).
    private func held(_ item: DispatchCapture.Object) -> DispatchCapture.Object {
        ssdc_block_copy(item) ?? item
    }

    /// The blocks waiting for the block `ran`, which the runner has just run.
    func due(afterRunning ran: DispatchCapture.Object) -> [DispatchWork] {
        guard afterWorkItems.contains(where: { $0.item == ran }) else { return [] }
        return dueAfterWorkItems()
    }

    /// The blocks whose work items have run, in the order they were added.
    func dueAfterWorkItems() -> [DispatchWork] {
        guard !afterWorkItems.isEmpty else { return [] }
        var due: [DispatchWork] = []
        afterWorkItems.removeAll { pending in
            guard hasRun(pending.item) else { return false }
            due.append(pending.work)
            ssdc_block_release(pending.item)
            return true
        }
        return due
    }

    /// Everything due: after work items (one the app ran itself is seen here), then after groups.
    func due() -> [DispatchWork] {
        var due = dueAfterWorkItems()
        afterGroups.removeAll { pending in
            guard ssdc_real_group_wait(pending.group, 0) == 0 else { return false }
            due.append(pending.work)
            ssdc_release(pending.group)
            return true
        }
        return due
    }

    deinit {
        for pending in afterGroups { ssdc_release(pending.group) }
        for pending in afterWorkItems { ssdc_block_release(pending.item) }
        for item in workItemsRun { ssdc_block_release(item) }
    }
}
