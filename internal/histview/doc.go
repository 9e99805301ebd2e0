// Package histview draws a history that failed a linearizability check as
// one self-contained HTML page: porcupine's own visualization (one row
// per client, each operation a box from its call to its return, the
// longest linearizable prefix and where it breaks, a hover for every
// state) with the faults of the run drawn beside it at their times: kills,
// stops, restarts and each replica's LOOKING periods, one row per
// replica, so a reader sees which operations overlapped which fault.
//
//	res, info := porcupine.CheckOperationsVerbose(model, ops, limit)
//	if res == porcupine.Illegal {
//		path := filepath.Join(artifacts.Keep(t), "history.html")
//		err := histview.WriteFile(path, histview.Page{Title: "seed 7", Model: model, Info: info, Faults: faults})
//		t.Fatalf("not linearizable; open %s", path)
//	}
//
// Times of faults are on the operations' clock (Call and Return). The
// page keeps every script error in window.__errors and reports what it
// drew in window.histview, for tests that open it in Chromium.
package histview
