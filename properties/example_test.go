package properties_test

import (
	"errors"
	"fmt"
	"os"
	"time"

	"zablab/properties"
)

func Example() {
	p, err := properties.LoadString(`# peer 1 of 3
myid = 1
peer1 = 127.0.0.1:2881
peer2 = 127.0.0.1:2882
peer3 = 127.0.0.1:2883
tickTime = 2000
dataLogDir = data/peer1/\
             log
greeting = Gr\u00fc\u00dfe
`)
	if err != nil {
		fmt.Println(err)
		return
	}
	id, _ := p.Int("myid", 0)
	peers, _ := p.Indexed("peer")
	tick, _ := p.Millis("tickTime", time.Second)
	fmt.Println(id, peers[2], tick)
	fmt.Println(p.String("dataLogDir", "data"), "from line", p.Line("dataLogDir"))
	fmt.Println(p.String("greeting", ""))
	// Output:
	// 1 127.0.0.1:2882 2s
	// data/peer1/log from line 7
	// Grüße
}

func ExampleProperties_Errorf() {
	p, _ := properties.LoadString("myid = 1\npeer1 = localhost\n")
	errBadPeer := errors.New("zab: bad peer address")
	err := p.Errorf("peer1", errBadPeer, "want host:port, got %q", "localhost")
	fmt.Println(err)
	fmt.Println(errors.Is(err, errBadPeer))
	// Output:
	// line 2: key "peer1": want host:port, got "localhost"
	// true
}

func ExampleProperties_Int() {
	p, _ := properties.LoadString("syncLimit = five\n")
	_, err := p.Int("syncLimit", 5)
	fmt.Println(err)
	fmt.Println(errors.Is(err, properties.ErrValue))
	// Output:
	// line 1: key "syncLimit": want an integer, got "five"
	// true
}

func ExampleProperties_Store() {
	p := properties.New()
	p.Set("key with spaces", " value=with:specials\n")
	p.Set("path", `C:\zab`)
	if err := p.Store(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// key\ with\ spaces=\ value\=with\:specials\n
	// path=C\:\\zab
}
