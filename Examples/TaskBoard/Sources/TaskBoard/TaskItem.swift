/// A task on the board.
public struct TaskItem: Codable, Sendable, Hashable, Identifiable {
    /// The backend's id (`t-3`).
    public var id: String
    /// What it says.
    public var title: String
    /// Whether it is done.
    public var done: Bool

    /// Creates a task.
    public init(id: String, title: String, done: Bool) {
        self.id = id
        self.title = title
        self.done = done
    }
}
