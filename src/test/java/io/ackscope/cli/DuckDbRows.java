package io.ackscope.cli;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** A DuckDB query's result as text rows, as the cli tests compare it with what the commands print. */
final class DuckDbRows {
    private DuckDbRows() {
    }

    static List<List<String>> query(Statement s, String sql) throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        try (ResultSet r = s.executeQuery(sql)) {
            int n = r.getMetaData().getColumnCount();
            while (r.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(r.getString(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
