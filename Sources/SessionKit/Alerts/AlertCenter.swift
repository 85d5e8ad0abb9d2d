/// The single channel every alert of the stack goes through, kept in emission order.
public actor AlertCenter {
    private var history: [SessionAlert] = []
    private var presented: [SessionAlert] = []

    /// Creates an empty center.
    public init() {}

    /// Queues an alert for presentation.
    public func emit(_ alert: SessionAlert) {
        history.append(alert)
        presented.append(alert)
    }

    /// Every alert emitted so far, in order, dismissed ones included.
    public func emitted() -> [SessionAlert] { history }

    /// The alerts waiting to be shown or answered, oldest first.
    public func pending() -> [SessionAlert] { presented }

    /// Dismisses the oldest pending alert and returns it.
    @discardableResult
    public func dismiss() -> SessionAlert? {
        presented.isEmpty ? nil : presented.removeFirst()
    }

    /// Dismisses the oldest presented alert equal to `alert`; `false` when none is showing.
    @discardableResult
    public func dismiss(_ alert: SessionAlert) -> Bool {
        guard let index = presented.firstIndex(of: alert) else { return false }
        presented.remove(at: index)
        return true
    }

    /// Forgets everything (tests).
    public func reset() {
        history = []
        presented = []
    }
}
