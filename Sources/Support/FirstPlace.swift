extension RandomAccessCollection where Index == Int {
    /// The first place whose element is not before the one sought, by a binary search.
    ///
    /// `isBefore` says whether an element comes before it; the collection is ordered so that
    /// every element it says so of comes first.
    package func firstPlace(notBefore isBefore: (Element) -> Bool) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = (low + high) / 2
            if isBefore(self[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The first place whose text, `text` of its element, has the bytes of `id`, in a
    /// collection sorted by those bytes; nil when there is none.
    package func place(ofBytes id: String, text: (Element) -> String) -> Int? {
        let place = firstPlace { text($0).bytesPrecede(id) }
        return place < endIndex && text(self[place]).bytesEqual(id) ? place : nil
    }
}
