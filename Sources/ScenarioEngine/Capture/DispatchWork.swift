import CRuntimeHooks
import Foundation

/// A block the scenario took from Dispatch, with the queue it was sent to.
final class DispatchWork: @unchecked Sendable {
    let queue: DispatchCapture.Object
    /// The block as it was sent (a work item's block is found by it).
    let sent: UnsafeMutableRawPointer
    private var block: UnsafeMutableRawPointer?
    private let owned: Bool
    private var group: DispatchCapture.Object?
    private let done: DispatchSemaphore?

    /// Copies `block` and holds `queue` (and enters `group`) until the block has run or is dropped.
    init(queue: DispatchCapture.Object, block: UnsafeMutableRawPointer, group: DispatchCapture.Object?) {
        ssdc_retain(queue)
        if let group { ssdc_real_group_enter(group) }
        self.queue = queue
        self.sent = block
        self.block = ssdc_block_copy(block)
        self.owned = true
        self.group = group
        self.done = nil
    }

    /// A block another thread waits on (`sync`): not copied, and `done` is signalled when it ran.
    init(queue: DispatchCapture.Object, borrowing block: UnsafeMutableRawPointer, done: DispatchSemaphore) {
        ssdc_retain(queue)
        self.queue = queue
        self.sent = block
        self.block = block
        self.owned = false
        self.group = nil
        self.done = done
    }

    /// Whether blocks on this queue may run in any order (a global queue): asked once, as the
    /// scheduler asks it for every queued block whenever it picks one. A queue made `.concurrent`
    /// keeps its order under exploration, which a barrier block on it may count on.
    private(set) lazy var isConcurrent: Bool = ssdc_is_global_queue(queue) != 0
    /// Whether the queue's other blocks may run while this one waits (see ``DispatchCapture/runsSideBySide(_:)``).
    private(set) lazy var sharesItsQueue: Bool = DispatchCapture.runsSideBySide(queue)
    var isMain: Bool { queue == DispatchCapture.mainQueue }
    /// The serial queue that orders this block among others (see ``DispatchCapture/serialRoot(of:)``).
    private(set) lazy var serialRoot: DispatchCapture.Object = DispatchCapture.serialRoot(of: queue)
    /// Whether the block runs under its queue's real lock (see ``DispatchCapture/guardsSharedState(_:)``):
    /// asked once, as the retained queue stays the same queue.
    private(set) lazy var guardsSharedState: Bool = DispatchCapture.guardsSharedState(queue)
    var queueLabel: String { Self.label(of: queue) }

    static func label(of queue: DispatchCapture.Object) -> String {
        if queue == DispatchCapture.mainQueue { return "the main queue" }
        guard let raw = ssdc_queue_label(queue) else { return "an unlabelled queue" }
        let label = String(cString: raw)
        return label.isEmpty ? "an unlabelled queue" : "queue '\(label)'"
    }

    /// Runs the block once.
    func run() {
        guard let block else { return }
        self.block = nil
        ssdc_block_invoke(block)
        finish(block)
    }

    private func finish(_ block: UnsafeMutableRawPointer) {
        if owned { ssdc_block_release(block) }
        if let group { ssdc_real_group_leave(group) }
        group = nil
        done?.signal()
    }

    deinit {
        // Dropped unrun (the scenario ended): nothing is left entered or waiting.
        if let block { finish(block) }
        ssdc_release(queue)
    }
}
