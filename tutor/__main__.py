from tutor.launch import main

main()
