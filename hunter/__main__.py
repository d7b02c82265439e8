from hunter.app import main

raise SystemExit(main())
