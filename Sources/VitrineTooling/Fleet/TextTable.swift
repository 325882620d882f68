/// Columns padded to their widest cell, two spaces apart, for a terminal (`vitrine fleet`).
public enum TextTable {
    public static func render(header: [String], rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        return all.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                if column > 0 { line += "  " }
                line += cell
                if column < row.count - 1 { line += String(repeating: " ", count: max(0, widths[column] - cell.count)) }
            }
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}
