/// Needles by their bytes as written: a walk from a place in the text passes every needle that
/// starts there.
struct NeedleTrie: Sendable {
    /// Per node: the byte that leads to it, its first child, its next sibling, and the needle
    /// that ends at it (`-1`: none). Node 0 is the root.
    private var labels: [UInt8] = [0]
    private var firstChild: [Int32] = [-1]
    private var nextSibling: [Int32] = [-1]
    private var needle: [Int32] = [-1]
    /// The root's children by byte, the step every place in the text takes.
    private var rootChildren = [Int32](repeating: -1, count: 256)

    mutating func insert(_ bytes: [UInt8], needle index: Int) {
        var node = 0
        for byte in bytes {
            node = child(of: node, byte) ?? add(byte, under: node)
        }
        if needle[node] < 0 { needle[node] = Int32(index) }
    }

    /// The needles that match `bytes` from `start` as written, shortest first.
    func needles(startingAt start: Int, in bytes: UnsafeBufferPointer<UInt8>, into ends: inout [Int]) {
        ends.removeAll(keepingCapacity: true)
        var node = 0
        var position = start
        while position < bytes.count, let next = child(of: node, bytes[position]) {
            node = next
            position += 1
            if needle[node] >= 0 { ends.append(Int(needle[node])) }
        }
    }

    private func child(of node: Int, _ byte: UInt8) -> Int? {
        if node == 0 {
            let found = rootChildren[Int(byte)]
            return found < 0 ? nil : Int(found)
        }
        var candidate = firstChild[node]
        while candidate >= 0 {
            if labels[Int(candidate)] == byte { return Int(candidate) }
            candidate = nextSibling[Int(candidate)]
        }
        return nil
    }

    private mutating func add(_ byte: UInt8, under parent: Int) -> Int {
        let node = labels.count
        labels.append(byte)
        firstChild.append(-1)
        needle.append(-1)
        if parent == 0 {
            nextSibling.append(-1)
            rootChildren[Int(byte)] = Int32(node)
        } else {
            nextSibling.append(firstChild[parent])
            firstChild[parent] = Int32(node)
        }
        return node
    }
}
