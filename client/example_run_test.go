package client_test

import (
	"errors"
	"fmt"
	"log"
	"time"

	"zablab/client"
	"zablab/client/internal/zktest"
	"zablab/mwzookeeper"

	// The example needs our server's reference service; importing it here
	// makes a handout (which has no solutions/) drop this file.
	_ "zablab/solutions/aufgabe5"
)

// A whole session against a server started in this process: the course's
// four calls, an error, and a watch.
func Example() {
	srv, err := zktest.New() // our server and the reference service
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Stop()

	zk, err := client.Connect(srv.Addrs, 5*time.Second)
	if err != nil {
		log.Fatal(err)
	}
	defer zk.Close()

	name, err := zk.Create("/hello", []byte("world"), false)
	fmt.Println(name, err)

	_, err = zk.Create("/hello", nil, false)
	fmt.Println(errors.Is(err, mwzookeeper.ErrNodeExists), err)

	var st mwzookeeper.MWStat
	_, ch, err := zk.GetDataW("/hello", &st)
	if err != nil {
		log.Fatal(err)
	}
	st, err = zk.SetData("/hello", []byte("again"), st.Version)
	fmt.Println("version", st.Version, err)
	fmt.Println(<-ch)

	data, err := zk.GetData("/hello", &st)
	fmt.Printf("%s %d %v\n", data, st.DataLength, err)
	fmt.Println(zk.Delete("/hello", 0))
	// Output:
	// /hello <nil>
	// true create /hello: mwzookeeper: node already exists
	// version 1 <nil>
	// type:NodeDataChanged path:/hello
	// again 5 <nil>
	// delete /hello: mwzookeeper: version conflict
}
