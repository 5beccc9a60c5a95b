package fault

import "testing"

func TestActivate(t *testing.T) {
	if On(FirstMatch) || Active() {
		t.Fatal("no fault is on by default")
	}
	restore := Activate(FirstMatch)
	if !On(FirstMatch) || On(NoReverse) || !Active() {
		t.Fatal("exactly the activated fault is on")
	}
	restore()
	if On(FirstMatch) || Active() {
		t.Fatal("restore switches the fault off")
	}
}
