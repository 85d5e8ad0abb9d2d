import ScenarioEngine

/// Answers remembered for short keys that repeat (header values, names): a key over
/// `maximumKeyBytes` is rarely met twice and is not kept, and once `maximumCount` answers are
/// kept no more are, so a flood of distinct values (a token per request) costs no memory.
/// Not locked: its owner keeps it to one thread.
struct BoundedMemo<Key: Hashable, Value> {
    private var answers: [Key: Value] = [:]
    private let maximumCount: Int
    private let maximumKeyBytes: Int
    /// How many bytes a key counts as.
    private let keyBytes: (Key) -> Int

    init(maximumCount: Int = 50_000, maximumKeyBytes: Int = 128, keyBytes: @escaping (Key) -> Int) {
        self.maximumCount = maximumCount
        self.maximumKeyBytes = maximumKeyBytes
        self.keyBytes = keyBytes
    }

    /// The answer for `key`: the remembered one, or `make()`'s, remembered when there is room.
    mutating func value(for key: Key, make: () -> Value) -> Value {
        guard keyBytes(key) <= maximumKeyBytes else { return make() }
        if let known = answers[key] { return known }
        let value = make()
        if answers.count < maximumCount { answers[key] = value }
        return value
    }
}

extension BoundedMemo where Key == String {
    /// A memo whose keys count their UTF-8 bytes.
    init(maximumCount: Int = 50_000, maximumKeyBytes: Int = 128) {
        self.init(maximumCount: maximumCount, maximumKeyBytes: maximumKeyBytes) { $0.utf8.count }
    }
}
